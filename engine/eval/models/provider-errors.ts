/**
 * What a failed model request means for the run: a transient failure (rate limit, overload, a
 * 5xx, the network, a request past its time limits) is retried and, if it keeps failing, the
 * trial is "not run", never scored; a fatal one (a bad key, billing, an unknown model, a
 * malformed request) stops the run at once.
 */
import { RequestTimeoutError } from "./timed-fetch.js";

export interface ErrorClass {
  kind: "transient" | "fatal";
  /** How long the provider asked to wait (Retry-After / retry-after-ms), when it said. */
  retryAfterMs?: number;
  /** One line for the report. */
  message: string;
}

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/**
 * Reads `Retry-After` (seconds or an HTTP date) or `retry-after-ms`, capped at `maxMs`.
 *
 * @example retryAfter({ "retry-after": "2" }); // 2000
 */
export function retryAfter(headers: Record<string, string | undefined> | undefined, now = Date.now(), maxMs = 120_000): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const ms = Number(get("retry-after-ms"));
  if (get("retry-after-ms") !== undefined && Number.isFinite(ms) && ms >= 0) return Math.min(ms, maxMs);
  const value = get("retry-after");
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, maxMs);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.min(Math.max(0, date - now), maxMs);
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && chain.length < 8; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/**
 * Classifies an error thrown by a model request (the AI SDK's `APICallError` and `RetryError`,
 * fetch's network failures, or anything else).
 *
 * @example classifyError(error).kind === "transient" ? retry() : stop();
 */
export function classifyError(error: unknown): ErrorClass {
  const errors = causeChain(error);
  // A RetryError wraps the attempts; the last one says what happened.
  const last = (error as { lastError?: unknown } | undefined)?.lastError;
  if (last !== undefined) errors.unshift(last);
  for (const e of errors) {
    if (e instanceof RequestTimeoutError) return { kind: "transient", message: e.message };
    const status = (e as { statusCode?: unknown }).statusCode;
    // A successful answer that could not be read: what stopped the reading (its cause) decides.
    if (typeof status === "number" && status >= 200 && status < 300 && (e as { cause?: unknown }).cause !== undefined) continue;
    if (typeof status === "number") {
      const headers = (e as { responseHeaders?: Record<string, string> }).responseHeaders;
      const body = String((e as { responseBody?: unknown }).responseBody ?? "");
      const message = `HTTP ${status}: ${String((e as Error).message ?? "").slice(0, 300)}`;
      if (status === 408 || status === 409 || status === 425 || status === 429 || status >= 500) {
        // A quota that is used up is billing, not a rate limit: waiting does not help.
        if (/insufficient_quota|billing|credit balance/i.test(body)) return { kind: "fatal", message };
        return { kind: "transient", message, retryAfterMs: retryAfter(headers) };
      }
      return { kind: "fatal", message };
    }
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return { kind: "transient", message: `network: ${code}` };
    if (e instanceof TypeError && /fetch failed|network|socket|terminated/i.test(e.message)) return { kind: "transient", message: `network: ${e.message}` };
    if (/overloaded/i.test(String((e as Error)?.message ?? ""))) return { kind: "transient", message: String((e as Error).message) };
  }
  const name = (error as Error)?.name ?? "";
  if (/LoadAPIKeyError|NoSuchModelError|NoSuchProviderError|InvalidPromptError|InvalidArgumentError/.test(name))
    return { kind: "fatal", message: `${name}: ${(error as Error).message}` };
  return { kind: "fatal", message: String((error as Error)?.message ?? error).slice(0, 300) };
}
