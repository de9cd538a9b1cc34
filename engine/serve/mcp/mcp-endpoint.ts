/**
 * One MCP fake served over Streamable HTTP as a fetch function, through the SDK's own serving
 * entry (`createMcpHandler`), so both protocol eras answer on one URL:
 *
 * - 2026-07-28: stateless by design; `server/discover`, the `MCP-Protocol-Version`, `Mcp-Method`
 *   and `Mcp-Name` headers and the `_meta` envelope are checked by the SDK.
 * - 2025-11-25: the SDK's stateless fallback. Each POST (the `initialize` handshake included) is
 *   served by a fresh server; no session id is issued, GET and DELETE answer 405. A fake keeps
 *   its state in the host, not in a session, so sessions would only add memory to leak, unless
 *   it asks the client or pushes to subscribers: a fake declared with `sessions: true` serves
 *   this era in MCP sessions instead (legacy-sessions.ts).
 *
 * Bad requests (malformed JSON, a body that is not JSON-RPC, an unknown method, a wrong
 * Content-Type or Accept) get the SDK's own JSON-RPC error and HTTP status. In front of the SDK's
 * entry, which validates neither: a foreign `Origin` is refused 403 (origin-check.ts) and a batch
 * the protocol does not allow, or one that repeats a request id, 400 (batch-check.ts).
 */
import { mcpSdk } from "../../author/contract/index.js";
import { legacySessions } from "./legacy-sessions.js";
import { batchRefusal } from "./batch-check.js";
import { originCheck, type Refusal } from "./origin-check.js";
import { parsedBodyOf } from "./parsed-body.js";
import { fakeServers } from "./fake-server.js";
import type { McpFakeRuntime } from "./fake-runtime.js";
import { traceMcpRequest } from "../telemetry/index.js";

/** Request bodies over this are refused with 413 (SPEC §7). */
export const DEFAULT_MAX_REQUEST_BODY_SIZE = 1024 * 1024;

/** Options for `createMcpEndpoint`. */
export interface McpEndpointOptions {
  /** Bytes; a larger POST body is answered 413 before it is parsed. 1 MiB by default. */
  maxRequestBodySize?: number;
  /** Told of refused requests and serving failures (reporting only; the answer is unchanged). */
  onerror?: (error: Error) => void;
  /** How long `close()` waits for aborted calls to answer before ending them; 1000 ms by default. */
  closeGraceMs?: number;
  /**
   * Browser origins allowed besides loopback ones: `scheme://host[:port]` (exactly), a host name
   * (any scheme and port) or `*` (all); comma lists are split. A request with any other `Origin`
   * is answered 403; one without an `Origin` is served.
   */
  allowedOrigins?: readonly string[];
  /**
   * Who a request's 2025-era MCP session belongs to (the host's session address): when the
   * sessions kept are at their cap, the owner holding the most ends its least recently used.
   */
  sessionOwner?: (request: Request) => string;
}

/** A served fake: a fetch function and a way to stop it. */
export interface McpEndpoint {
  /** Answers one HTTP request; never rejects. */
  fetch(request: Request): Promise<Response>;
  /**
   * Aborts the calls in flight, waits up to `closeGraceMs` for their answers, then ends what is
   * left; later requests are answered 503.
   */
  close(): Promise<void>;
  /** Ends the 2025-era MCP sessions `sessionOwner` gave to `owner` (a session of the host that was freed). */
  endSessions(owner: string): void;
}

/**
 * Serves one fake's tools over Streamable HTTP, both protocol eras, built once at start-up.
 *
 * @example
 * const endpoint = createMcpEndpoint({ id: "notes", tools: captured, callTool: host.call });
 * const response = await endpoint.fetch(request); // mount at /notes/mcp
 */
export function createMcpEndpoint(fake: McpFakeRuntime, options: McpEndpointOptions = {}): McpEndpoint {
  const report = (error: Error): void => {
    try {
      options.onerror?.(error);
    } catch {
      // A failing reporter must not turn an answered request into a failed one.
    }
  };
  // The SDK builds its wire schemas on first use; build them now so no request pays for it.
  const { createMcpHandler, isLegacyRequest, preloadSchemas } = mcpSdk();
  preloadSchemas();
  const checkOrigin = originCheck(options.allowedOrigins);
  const maxRequestBodySize = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const stopping = new AbortController();
  const servers = fakeServers(fake, stopping.signal);
  const handler = createMcpHandler((context) => servers.create({ era: context.era }), {
    legacy: fake.sessions ? "reject" : "stateless",
    maxRequestBodySize,
    onerror: report,
  });
  // A fake declared with `sessions: true` serves 2025-era clients in sessions (legacy-sessions.ts).
  const sessions = fake.sessions
    ? legacySessions(() => servers.create({ era: "legacy", session: true }), {
        onerror: report,
        ...(options.sessionOwner && { owner: options.sessionOwner }),
      })
    : undefined;
  let closed = false;
  let closing: Promise<void> | undefined;

  return {
    async fetch(request: Request): Promise<Response> {
      if (closed) return jsonRpcError(503, -32000, `Service unavailable: fake ${JSON.stringify(fake.id)} is closed`);
      try {
        const foreign = checkOrigin(request);
        if (foreign) return refuse(foreign, report);
        const parsed = parsedBodyOf(request) ?? (await readMessage(request, maxRequestBodySize));
        const batch = parsed && batchRefusal(parsed.parsedBody, request.headers.get("mcp-protocol-version"));
        if (batch) return refuse(batch, report);
        return await traceMcpRequest(fake.id, request, parsed?.parsedBody, async () => {
          if (sessions && (await isLegacyRequest(request, parsed?.parsedBody, { maxRequestBodySize })))
            return await sessions.fetch(request, parsed?.parsedBody);
          return await handler.fetch(request, parsed);
        });
      } catch (error) {
        // The entry answers its own failures; this only guards the promise of never rejecting.
        report(error instanceof Error ? error : new Error(String(error)));
        return jsonRpcError(500, -32603, "Internal server error");
      }
    },
    endSessions(owner) {
      sessions?.endOwner(owner);
    },
    close(): Promise<void> {
      closed = true;
      // Abort the calls running, give them a moment to answer (usually a tool error), and only
      // then let the entry end what is left: it ends 2026-era exchanges without an answer.
      closing ??= (async () => {
        stopping.abort(new Error(`[eval-simulate] fake ${JSON.stringify(fake.id)} is closing`));
        await settle(servers.idle(), options.closeGraceMs ?? 1000);
        await sessions?.close();
        await handler.close();
      })();
      return closing;
    },
  };
}

/** Reports a refusal as the SDK reports its own (`onerror`), then answers it. */
function refuse(refusal: Refusal, report: (error: Error) => void): Response {
  report(new Error(`Rejected inbound request: ${refusal.message}`));
  return jsonRpcError(refusal.status, refusal.code, refusal.message);
}

/**
 * The JSON body of a POST the node adapter did not parse (an in-process request), read from a
 * copy up to the size limit. Undefined when there is none, or it is too large, unreadable or not
 * JSON: the SDK then reads the request itself and answers with its own error.
 */
async function readMessage(request: Request, maxBytes: number): Promise<{ parsedBody: unknown } | undefined> {
  if (request.method !== "POST" || request.body === null || request.bodyUsed) return undefined;
  if (!/json/i.test(request.headers.get("content-type") ?? "")) return undefined;
  const reader = request.clone().body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(value);
    }
    const text = Buffer.concat(chunks).toString("utf8");
    return text.trim() === "" ? undefined : { parsedBody: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** Waits for `idle` or `ms`, whichever comes first, then for the answers to be written. */
async function settle(idle: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([idle, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
  // An answer leaves through promise callbacks after its call settles; setImmediate runs after
  // they have all run.
  await new Promise<void>((resolve) => setImmediate(resolve));
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}
