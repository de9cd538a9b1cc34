import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { FAULT_HEADER } from "../api/index.js";
import { rememberParsedBody } from "../mcp/index.js";
import { rememberRawTarget } from "./raw-target.js";
import { responseWait } from "./response-wait.js";
import { ConnectionQueues } from "./connection-queue.js";
import { type HttpLimits, resolveHttpLimits } from "./http-limits.js";
import { bodyLimitOf, localAuthority, MAX_BODY_BYTES, pathOf, refuse, refuseBusy, refuseConnect, refuseStalled, refuseTooLarge } from "./http-refusals.js";
import { requestTarget, SERVED_METHODS } from "./request-target.js";

export { MAX_BODY_BYTES, MAX_MODEL_BODY_BYTES } from "./http-refusals.js";

/** The host as a function: a web-standard request in, a response out. */
export type FetchHandler = (request: Request) => Promise<Response>;

export interface Listening {
  server: Server;
  port: number;
  host: string;
  /** `http://<host>:<port>`, with a wildcard address shown as loopback. */
  url: string;
  close(): Promise<void>;
}

/**
 * Bytes of request bodies past the port's `MAX_BODY_BYTES` (a model request may carry up to
 * `MAX_MODEL_BODY_BYTES`) held at once across every request of the process: past it a request
 * answers 503, so a burst of large bodies (the model paths take any address before routing) cannot
 * make the host hold `maxInFlight` × 8 MiB.
 */
export const MAX_LARGE_BODIES_BYTES = 64 * 1024 * 1024;
let largeBodies = 0;

/** What a request holds of the large-body budget until it is answered. */
interface BodyHold {
  bytes: number;
}

/** Reads the body, refusing past the size limit without buffering the rest, once it stalls, or past the large-body budget. */
function readBody(req: IncomingMessage, stallMs: number, maxBytes: number, hold: BodyHold): Promise<Buffer | "too-large" | "stalled" | "gone" | "busy"> {
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) return Promise.resolve("too-large");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: Buffer | "too-large" | "stalled" | "gone" | "busy") => {
      clearTimeout(timer);
      req.off("data", data).off("end", end).off("error", gone).off("close", gone);
      if (typeof value === "string") req.pause();
      resolve(value);
    };
    const timer = setTimeout(() => done("stalled"), stallMs);
    const data = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return done("too-large");
      const over = size - MAX_BODY_BYTES - hold.bytes;
      if (over > 0) {
        if (largeBodies + over > MAX_LARGE_BODIES_BYTES) return done("busy");
        largeBodies += over;
        hold.bytes += over;
      }
      chunks.push(chunk);
      timer.refresh();
    };
    const end = () => done(Buffer.concat(chunks));
    const gone = () => done("gone");
    req.on("data", data).on("end", end).on("error", gone).on("close", gone);
  });
}

/** The request's headers as web Headers, with the Host the request target settled on. */
function headersOf(req: IncomingMessage, host: string): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === "host") continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  headers.set("host", host);
  return headers;
}

/** Serves one request, giving back what its body held of the large-body budget once it is answered. */
async function serveOne(handler: FetchHandler, limits: HttpLimits, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const hold: BodyHold = { bytes: 0 };
  try {
    await serveHolding(handler, limits, req, res, hold);
  } finally {
    largeBodies -= hold.bytes;
  }
}

async function serveHolding(handler: FetchHandler, limits: HttpLimits, req: IncomingMessage, res: ServerResponse, hold: BodyHold): Promise<void> {
  const aborted = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) aborted.abort(new Error("client closed the connection"));
  });
  const path = pathOf(req);
  const method = req.method ?? "GET";
  const target = requestTarget(method, req.url ?? "/", req.headersDistinct.host ?? [], localAuthority(req.socket));
  if (target.kind === "refused") return refuse(res, path, target.status, target.error, target.message);
  if (target.kind === "server-options") {
    res.writeHead(204, { allow: SERVED_METHODS }).end();
    return;
  }
  const body = method === "GET" || method === "HEAD" ? undefined : await readBody(req, limits.stallTimeoutMs, bodyLimitOf(path), hold);
  if (body === "gone") return;
  if (body === "busy") return refuseBusy(req, res);
  if (body === "too-large") return refuseTooLarge(res, path);
  if (body === "stalled") return refuseStalled(res, path, limits.stallTimeoutMs);
  // An MCP message is parsed here, once, and handed to the SDK parsed (its "perf escape hatch"),
  // so the request needs no body stream; malformed JSON is left for the SDK to answer its way.
  let message: { value: unknown } | undefined;
  if (body && body.length > 0 && path.endsWith("/mcp") && /json/i.test(req.headers["content-type"] ?? "")) {
    try {
      message = { value: JSON.parse(body.toString("utf8")) };
    } catch {
      // The SDK reads the body itself and answers -32700.
    }
  }
  const sent = !message && body && body.length > 0 ? new Uint8Array(body) : undefined;
  let request: Request;
  try {
    request = new Request(target.url, { method, headers: headersOf(req, target.host), body: sent, signal: aborted.signal });
  } catch (error) {
    // Whatever node:http let through that a web Request cannot carry is the request's fault.
    return refuse(res, path, 400, "bad_request", `Bad Request: ${(error as Error).message}`);
  }
  if (message) rememberParsedBody(request, message.value);
  rememberRawTarget(request, target.url);
  let response: Response;
  try {
    response = await handler(request);
  } catch (error) {
    return refuse(res, path, 500, "internal_error", String((error as Error)?.message ?? error));
  }
  const fault = response.headers.get(FAULT_HEADER);
  if (fault) return failConnection(res, fault);
  const outgoing: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    outgoing[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, outgoing);
  if (!response.body) {
    res.end();
    return;
  }
  // Written chunk by chunk as the handler produces them, so SSE responses flow as they are
  // written; a client that stops reading is waited for up to the stall timeout, never buffered for.
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) break;
      if (!res.write(chunk) && !(await responseWait(res, "drain", limits.stallTimeoutMs))) {
        res.destroy();
        break;
      }
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** Fails a connection the way an injected HTTP fault asks, as WireMock's faults do. */
function failConnection(res: ServerResponse, fault: string): void {
  const socket = res.socket as (NonNullable<ServerResponse["socket"]> & { resetAndDestroy?: () => void }) | null;
  if (fault === "malformed_body") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"data": [1, 2, \u0000 not json');
  } else if (fault === "connection_reset" && socket?.resetAndDestroy) {
    socket.resetAndDestroy();
  } else {
    // empty_response: the connection closes without a byte of response.
    socket?.destroy();
  }
}

/**
 * Serves a fetch handler with node:http. A handler that throws answers 500 and the server goes
 * on; the connection of an aborted request is closed, never the process. Requests are served one
 * at a time per connection and at most `limits.maxInFlight` at once (503 past it); a stalled
 * client is timed out (408) or let go (see {@link HttpLimits}).
 *
 * @example const listening = await listen(host.fetch, { port: 0, host: "127.0.0.1" });
 */
export function listen(handler: FetchHandler, options: { port?: number; host?: string; limits?: Partial<HttpLimits> } = {}): Promise<Listening> {
  const host = options.host ?? "127.0.0.1";
  const limits = resolveHttpLimits(options.limits);
  const headersTimeout = Math.min(limits.stallTimeoutMs, limits.requestTimeoutMs);
  const server = createServer({
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs,
    // How often node:http looks for requests past those two timeouts.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
  });
  // Clients (undici's default is 4 s) close an idle connection well before the server does, so a
  // request sent on it as the server closes it (a race a busy event loop widens) cannot happen.
  server.keepAliveTimeout = 15_000;
  const queues = new ConnectionQueues(limits, (req, res) => serveOne(handler, limits, req, res), refuseBusy);
  server.on("request", (req, res) => queues.admit(req, res));
  server.on("connect", (_req, socket) => refuseConnect(socket as Socket));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const address = server.address() as AddressInfo;
      resolve({
        server,
        port: address.port,
        host,
        url: `http://${host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
