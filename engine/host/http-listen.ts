import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FAULT_HEADER } from "../api/handle-request.js";
import { rememberParsedBody } from "../mcp/parsed-body.js";

/** The host as a function: a web-standard request in, a response out. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Requests with bodies larger than this are refused with 413 before they reach a fake. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface Listening {
  server: Server;
  port: number;
  host: string;
  /** `http://<host>:<port>`, with a wildcard address shown as loopback. */
  url: string;
  close(): Promise<void>;
}

function tooLarge(res: ServerResponse, path: string): void {
  // The MCP SDK's own wording and code, so a client sees the same refusal either way.
  const message = `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`;
  const body = path.endsWith("/mcp") ? { jsonrpc: "2.0", id: null, error: { code: -32000, message } } : { error: "payload_too_large", message };
  res.writeHead(413, { "content-type": "application/json", connection: "close" }).end(JSON.stringify(body));
}

/** Reads the body, refusing past the limit without buffering the rest. */
async function readBody(req: IncomingMessage): Promise<Buffer | "too-large"> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) return "too-large";
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return "too-large";
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function handle(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const aborted = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) aborted.abort(new Error("client closed the connection"));
  });
  const path = (req.url ?? "/").split("?")[0];
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : await readBody(req);
  if (body === "too-large") {
    tooLarge(res, path);
    req.resume();
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
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
  const request = new Request(url, { method: req.method, headers, body: sent, signal: aborted.signal });
  if (message) rememberParsedBody(request, message.value);
  const response = await handler(request);
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
  // written; cheaper than piping through a Node stream made from the web stream.
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await new Promise((resolve) => (res.once("drain", resolve), res.once("close", resolve)));
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
 * on; the connection of an aborted request is closed, never the process.
 *
 * @example const listening = await listen(host.fetch, { port: 0, host: "127.0.0.1" });
 */
export function listen(handler: FetchHandler, options: { port?: number; host?: string } = {}): Promise<Listening> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer((req, res) => {
    handle(handler, req, res).catch((error) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "internal_error", message: String((error as Error)?.message ?? error) }));
      } else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
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
