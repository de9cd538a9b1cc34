/**
 * The model endpoints of a session: `/s/<address>/models/<provider>/v1/...` on the fakes' port.
 * A session serves them only while a responder is registered for it (the eval runner registers
 * one per trial); the secret address keeps each trial's model traffic its own, as it keeps its
 * world.
 */
import { type ModelCall, type ModelResponder, modelError, modelRoute } from "./model-calls.js";

/** The base URLs an agent is given: each provider's, as its SDK takes it in `*_BASE_URL`. */
export interface ModelBaseUrls {
  /** `…/models/openai/v1`: OpenAI's SDK, the AI SDK's openai and openai-compatible providers. */
  openai: string;
  /** `…/models/anthropic`: Anthropic's SDK and Claude Code add `/v1/messages`; the AI SDK's provider is given `…/models/anthropic/v1`. */
  anthropic: string;
}

/**
 * Which sessions answer model requests, and with what.
 *
 * @example
 * const models = new ModelEndpoints();
 * models.serve(session.id, async (call) => Response.json({ ... }));
 * await models.handle(session.id, ["openai", "v1", "chat", "completions"], request);
 */
export class ModelEndpoints {
  private readonly responders = new Map<string, ModelResponder>();

  /** Serves a session's model requests with `responder` until `drop` (or another `serve`). */
  serve(session: string, responder: ModelResponder): void {
    this.responders.set(session, responder);
  }

  drop(session: string): void {
    this.responders.delete(session);
  }

  /** Whether a session serves model requests now. */
  serves(session: string): boolean {
    return this.responders.has(session);
  }

  /** Answers a request below a session's `/models/`: the responder's answer, or the provider's own 4xx. */
  async handle(session: string, segments: readonly string[], request: Request): Promise<Response> {
    const route = modelRoute(segments);
    const provider = route?.provider ?? (segments[0] === "anthropic" ? "anthropic" : "openai");
    const responder = this.responders.get(session);
    if (!route || !responder)
      return modelError(
        provider,
        404,
        "not_found_error",
        `[eval-simulate] no model endpoint at /models/${segments.join("/")}${responder ? "" : " in this session: its case asks for none (models:)"}; served: /models/openai/v1/chat/completions, /models/openai/v1/responses, /models/anthropic/v1/messages`,
      );
    if (request.method !== "POST") return modelError(provider, 405, "invalid_request_error", `[eval-simulate] ${route.endpoint} takes POST`);
    let body: unknown;
    try {
      // The port has read the body already, within its size limit.
      body = JSON.parse(await request.text());
    } catch {
      return modelError(provider, 400, "invalid_request_error", "[eval-simulate] the request body is not JSON");
    }
    if (!body || typeof body !== "object" || Array.isArray(body))
      return modelError(provider, 400, "invalid_request_error", "[eval-simulate] the request body must be a JSON object");
    const call: ModelCall = {
      ...route,
      body: body as Record<string, unknown>,
      stream: (body as { stream?: unknown }).stream === true,
      headers: request.headers,
      signal: request.signal,
    };
    try {
      return await responder(call);
    } catch (error) {
      return modelError(provider, 500, "api_error", `[eval-simulate] the model endpoint failed: ${(error as Error).message}`);
    }
  }
}

/**
 * A session's model base URLs, from its fakes' origin and address.
 *
 * @example modelBaseUrls("http://127.0.0.1:4000", "s1~secret").openai // "http://127.0.0.1:4000/s/s1~secret/models/openai/v1"
 */
export function modelBaseUrls(origin: string, address: string): ModelBaseUrls {
  const base = `${origin}/s/${encodeURIComponent(address)}/models`;
  return { openai: `${base}/openai/v1`, anthropic: `${base}/anthropic` };
}
