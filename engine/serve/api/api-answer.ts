/**
 * What an API fake sends: the handler's answer (links rewritten to the client's base, JSON
 * unless the handler chose another media type, no body where HTTP allows none) and the fake's
 * own error answers (bad request, no route, wrong method, handler failures), each a JSON body
 * with an `error` code and a `message`.
 */
import { rewriteLinks, type LinkRewriter } from "./link-rewrite.js";
import { isJsonMediaType, mediaTypeOf } from "../../author/openapi/index.js";

/** A response as sent and as journaled. */
export interface SentResponse {
  status: number;
  /** Lowercased names. */
  headers: Record<string, string>;
  /** The body as sent: a JSON value, text, or null for none. */
  body: unknown;
}

/** The fake's own answers by error code, each with its status. */
export const ERROR_STATUS = {
  bad_request: 400,
  stubbed_error: 500,
  no_route: 404,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  refused: 422,
  handler_error: 500,
  handler_response: 500,
  response_not_in_document: 500,
  response_schema: 500,
  state_schema: 500,
  not_implemented: 501,
  handler_timeout: 504,
  // The world would grow past its byte limit: the server cannot store what the request asks.
  world_too_large: 507,
} as const;

/** One of the fake's own error codes. */
export type ApiErrorCode = keyof typeof ERROR_STATUS;

/**
 * One of the fake's own error answers: `{ error, message, ...details }` with the code's status.
 *
 * @example errorAnswer("no_route", "no operation of github matches GET /x", { matched: false, nearest: [] });
 */
export function errorAnswer(error: ApiErrorCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): SentResponse {
  const body = { ...("matched" in details ? { matched: details.matched } : {}), error, message, ...details };
  return { status: ERROR_STATUS[error], headers: { "content-type": "application/json", ...headers }, body };
}

/** Statuses HTTP sends without a body. */
const BODILESS = new Set([204, 205, 304]);

/** Headers about the connection and the body's framing, which only the host may set. */
export const FRAMING_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-connection",
  "content-encoding",
]);

/**
 * The handler's answer as sent: header names lowercased, links in headers and body rewritten,
 * the Content-Type set when there is a body.
 *
 * @example handlerAnswer({ status: 200, body: [], headers: { Link: "<https://api.github.com/x?page=2>; rel=\"next\"" } }, "application/json", rewrite);
 */
export function handlerAnswer(
  answer: { status: number; body?: unknown; headers?: Record<string, string> },
  contentType: string,
  rewrite: LinkRewriter,
): SentResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) {
    const lower = name.toLowerCase();
    // The host frames the body itself: a handler's (or a recorded stub's) length or transfer
    // headers would describe another body and desynchronise the connection.
    if (!FRAMING_HEADERS.has(lower)) headers[lower] = rewrite(value);
  }
  const none = BODILESS.has(answer.status) || answer.body === undefined || answer.body === null;
  if (none) {
    delete headers["content-type"];
    return { status: answer.status, headers, body: null };
  }
  headers["content-type"] ??= contentType;
  return { status: answer.status, headers, body: rewriteLinks(answer.body, rewrite) };
}

/**
 * The web-standard Response for what is sent: JSON media types (and non-text bodies) are
 * serialised as JSON, text bodies of other media types sent as they are; a HEAD request gets
 * the headers alone.
 *
 * @example toResponse({ status: 200, headers: { "content-type": "application/json" }, body: { ok: true } }, "GET");
 */
export function toResponse(sent: SentResponse, method: string): Response {
  const headers = new Headers(sent.headers);
  if (sent.body === null || sent.body === undefined) return new Response(null, { status: sent.status, headers });
  const type = mediaTypeOf(sent.headers["content-type"]) ?? "application/json";
  const text = typeof sent.body === "string" && !isJsonMediaType(type) ? sent.body : JSON.stringify(sent.body);
  return new Response(method === "HEAD" ? null : text, { status: sent.status, headers });
}
