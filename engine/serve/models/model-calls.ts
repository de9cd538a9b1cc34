/**
 * What a model request on the fakes' port is: which provider's API it speaks, read from the path
 * below `/models/`, and the parsed body. The protocols are the providers' own, so an agent's SDK
 * needs nothing but a base URL.
 */

/** The APIs served: OpenAI's chat completions and responses, Anthropic's messages. */
export type ModelApi = "chat" | "responses" | "messages";

/** The providers whose APIs are served, each below `/models/<provider>/`. */
export const MODEL_PROVIDERS = ["openai", "anthropic"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** One model request, as a responder is handed it. */
export interface ModelCall {
  provider: ModelProvider;
  api: ModelApi;
  /** The endpoint below the provider's `/v1`: `chat/completions`, `responses`, `messages`. */
  endpoint: string;
  /** The request's JSON body. */
  body: Record<string, unknown>;
  /** Whether the client asked for server-sent events (`stream: true`). */
  stream: boolean;
  headers: Headers;
  signal: AbortSignal;
}

/** Answers a session's model requests: record, replay or script them. */
export type ModelResponder = (call: ModelCall) => Promise<Response>;

const ENDPOINTS: Record<ModelProvider, Record<string, ModelApi>> = {
  openai: { "chat/completions": "chat", responses: "responses" },
  anthropic: { messages: "messages" },
};

/**
 * The provider and API a path below `/models/` names, its `v1/` optional (Anthropic's SDK and
 * Claude Code take a base URL without it, the AI SDK with it); undefined when it names none.
 *
 * @example modelRoute(["openai", "v1", "chat", "completions"]) // { provider: "openai", api: "chat", endpoint: "chat/completions" }
 */
export function modelRoute(segments: readonly string[]): { provider: ModelProvider; api: ModelApi; endpoint: string } | undefined {
  const [provider, ...rest] = segments;
  if (provider !== "openai" && provider !== "anthropic") return undefined;
  const endpoint = (rest[0] === "v1" ? rest.slice(1) : rest).join("/");
  const api = Object.hasOwn(ENDPOINTS[provider], endpoint) ? ENDPOINTS[provider][endpoint] : undefined;
  return api ? { provider, api, endpoint } : undefined;
}

/**
 * An error as the provider's clients read one: OpenAI's `{ error: { message, type } }`,
 * Anthropic's `{ type: "error", error: { type, message } }`.
 *
 * @example modelError("anthropic", 404, "not_found_error", "no model endpoint here")
 */
export function modelError(provider: ModelProvider, status: number, type: string, message: string): Response {
  const body = provider === "anthropic" ? { type: "error", error: { type, message } } : { error: { message, type, code: type } };
  return new Response(`${JSON.stringify(body)}\n`, { status, headers: { "content-type": "application/json" } });
}
