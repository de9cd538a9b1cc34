import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Requests with bodies larger than this are refused with 413 before they reach a fake. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A model request's body limit: each request carries the conversation's whole history, tool
 * results included, so an agent's requests outgrow a fake's. 8 MiB: past a million tokens of
 * context, and the size of the provider answer a recording keeps.
 */
export const MAX_MODEL_BODY_BYTES = 8 * 1024 * 1024;

/** A session's model endpoints (engine/serve/models/), by path. */
const MODEL_PATH = /^\/s\/[^/]+\/models\/(openai|anthropic)(\/|$)/;

/** The provider whose wire format a path's model endpoint speaks, when it names one. */
const modelProviderOf = (path: string): "openai" | "anthropic" | undefined => MODEL_PATH.exec(path)?.[1] as "openai" | "anthropic" | undefined;

/** The most bytes a request's body may hold on this path. */
export const bodyLimitOf = (path: string): number => (modelProviderOf(path) ? MAX_MODEL_BODY_BYTES : MAX_BODY_BYTES);

/** The path of a request, for choosing the shape of its refusal. */
export const pathOf = (req: IncomingMessage): string => (req.url ?? "/").split("?")[0];

/**
 * A refusal's body in the shape its path's protocol reads: on an MCP path a JSON-RPC error with
 * the SDK's own code (-32000), so an MCP client sees the same refusal either way; on a model
 * endpoint the provider's error shape; elsewhere `{ error, message }`.
 *
 * @example refusalBody("/notes/mcp", "invalid_host", "Invalid Host: …") // { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Invalid Host: …" } }
 */
export function refusalBody(path: string, error: string, message: string): Record<string, unknown> {
  if (path.endsWith("/mcp")) return { jsonrpc: "2.0", id: null, error: { code: -32000, message } };
  // A model endpoint's refusal is the provider's error, which its SDK reads (see modelError).
  const provider = modelProviderOf(path);
  if (provider === "anthropic") return { type: "error", error: { type: error === "payload_too_large" ? "request_too_large" : error, message } };
  if (provider === "openai") return { error: { message, type: error, code: error } };
  return { error, message };
}

/**
 * Answers a request the adapter refuses before any fake sees it, and closes the connection (the
 * rest of its body is not read), its body as `refusalBody` shapes it.
 *
 * @example refuse(res, "/notes/mcp", 413, "payload_too_large", "Payload Too Large: ...");
 */
export function refuse(res: ServerResponse, path: string, status: number, error: string, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", connection: "close", ...headers }).end(JSON.stringify(refusalBody(path, error, message)));
}

/** 413, in the MCP SDK's wording. */
export function refuseTooLarge(res: ServerResponse, path: string): void {
  refuse(res, path, 413, "payload_too_large", `Payload Too Large: Request body must not exceed ${bodyLimitOf(path)} bytes`);
}

/** 503 with `Retry-After`: more requests are being served than the host takes at once. */
export function refuseBusy(req: IncomingMessage, res: ServerResponse): void {
  refuse(res, pathOf(req), 503, "busy", "Service Unavailable: too many requests in flight; retry shortly", { "retry-after": "1" });
}

/** 408: the client stopped sending its body. */
export function refuseStalled(res: ServerResponse, path: string, ms: number): void {
  refuse(res, path, 408, "request_timeout", `Request Timeout: no body bytes arrived for ${ms} ms`);
}

/** `host:port` of the socket's local end: the Host of a request that names none (HTTP/1.0). */
export function localAuthority(socket: Socket): string {
  const raw = socket.localAddress ?? "127.0.0.1";
  const address = raw.startsWith("::ffff:") && raw.includes(".") ? raw.slice(7) : raw;
  return `${address.includes(":") ? `[${address}]` : address}:${socket.localPort ?? 80}`;
}

/** Answers CONNECT, which node:http hands over as a raw socket: 501, then close. */
export function refuseConnect(socket: Socket): void {
  const body = JSON.stringify({ error: "not_implemented", message: "CONNECT is not served here" });
  socket.end(
    `HTTP/1.1 501 Not Implemented\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
