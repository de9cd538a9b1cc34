/**
 * The real provider a recording is made from: its base URL and key read from the runner's
 * environment (`OPENAI_BASE_URL`/`OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`/`ANTHROPIC_API_KEY`), the
 * agent's own key never forwarded (it holds a dummy). Bounded: one timeout to the answer's last
 * byte, and answers past MAX_ANSWER_BYTES refused, never buffered whole.
 */
import type { ModelCall, ModelProvider } from "../../serve/models/index.js";

/** The most bytes of one provider answer kept. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** A provider's answer, read whole. */
export interface UpstreamAnswer {
  status: number;
  contentType: string;
  text: string;
}

const KEYS: Record<ModelProvider, string> = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" };

/** Why a request cannot be sent: no key, say. */
export class UpstreamError extends Error {}

/**
 * The URL a call is sent to: OpenAI's base URL ends in `/v1`; Anthropic's may or may not (its SDK
 * takes it without, the AI SDK with).
 *
 * @example upstreamUrl({ provider: "anthropic", endpoint: "messages" }, {}) // "https://api.anthropic.com/v1/messages"
 */
export function upstreamUrl(call: Pick<ModelCall, "provider" | "endpoint">, env: NodeJS.ProcessEnv): string {
  if (call.provider === "openai") return `${(env.OPENAI_BASE_URL || "https://api.openai.com/v1").replace(/\/+$/, "")}/${call.endpoint}`;
  const base = (env.ANTHROPIC_BASE_URL || "https://api.anthropic.com").replace(/\/+$/, "");
  return `${base}${base.endsWith("/v1") ? "" : "/v1"}/${call.endpoint}`;
}

/** The headers a provider is sent: its key from the environment, and the client's API version and betas. */
function headersFor(call: ModelCall, key: string): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: call.stream ? "text/event-stream" : "application/json" };
  if (call.provider === "openai") headers.authorization = `Bearer ${key}`;
  else {
    headers["x-api-key"] = key;
    headers["anthropic-version"] = call.headers.get("anthropic-version") ?? "2023-06-01";
    const beta = call.headers.get("anthropic-beta");
    if (beta) headers["anthropic-beta"] = beta;
  }
  return headers;
}

/** A body read to its end, refused past `max` bytes. */
async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) throw new UpstreamError(`the provider's answer passed ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Sends a call to the real provider and reads its answer whole.
 *
 * @example const answer = await sendUpstream(call, process.env, 300_000);
 */
export async function sendUpstream(call: ModelCall, env: NodeJS.ProcessEnv, timeoutMs: number, send: typeof fetch = fetch): Promise<UpstreamAnswer> {
  const key = env[KEYS[call.provider]];
  if (!key) throw new UpstreamError(`no API key to record from ${call.provider}: set ${KEYS[call.provider]}`);
  const url = upstreamUrl(call, env);
  const signal = AbortSignal.any([call.signal, AbortSignal.timeout(timeoutMs)]);
  try {
    const response = await send(url, { method: "POST", headers: headersFor(call, key), body: JSON.stringify(call.body), signal });
    const text = await readCapped(response, MAX_ANSWER_BYTES);
    return { status: response.status, contentType: response.headers.get("content-type") ?? "application/json", text };
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    const timedOut = (error as Error).name === "TimeoutError";
    throw new UpstreamError(timedOut ? `${url} did not answer within ${timeoutMs} ms` : `${url} could not be reached: ${(error as Error).message}`);
  }
}
