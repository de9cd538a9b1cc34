/**
 * Which model a run uses, from `provider:model` (`anthropic:claude-sonnet-4-5`,
 * `openai:gpt-4.1`, `google:gemini-2.5-pro`, `openai-compatible:qwen3` with a `baseURL`), and the
 * environment variable that holds its key.
 */

export type ProviderName = "anthropic" | "openai" | "google" | "openai-compatible";

export interface ModelSpec {
  provider: ProviderName;
  /** The model id as the provider names it. */
  model: string;
  /** `provider:model`, as written. */
  id: string;
  /** An OpenAI-compatible endpoint (Ollama, vLLM, LM Studio), or another base for a known provider. */
  baseURL?: string;
}

/** The package each provider comes from, and the exact version this engine is tested with. */
export const PROVIDER_PACKAGES: Record<ProviderName, string> = {
  anthropic: "@ai-sdk/anthropic@3.0.140",
  openai: "@ai-sdk/openai@3.0.141",
  google: "@ai-sdk/google@3.0.141",
  "openai-compatible": "@ai-sdk/openai-compatible@2.0.92",
};

/** The variable each provider's key is read from. */
export const KEY_VARIABLES: Record<ProviderName, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  google: "GOOGLE_GENERATIVE_AI_API_KEY",
  "openai-compatible": "OPENAI_COMPATIBLE_API_KEY",
};

/**
 * Reads `provider:model`. Throws an `[eval-simulate]` error naming the known providers.
 *
 * @example parseModel("anthropic:claude-sonnet-4-5"); // { provider: "anthropic", model: "claude-sonnet-4-5", … }
 */
export function parseModel(id: string, baseURL?: string): ModelSpec {
  const at = id.indexOf(":");
  const provider = id.slice(0, at) as ProviderName;
  const model = id.slice(at + 1);
  if (at <= 0 || model === "" || !(provider in PROVIDER_PACKAGES)) {
    throw new Error(`[eval-simulate] a model is "<provider>:<model>" with provider ${Object.keys(PROVIDER_PACKAGES).join(", ")}; not "${id}"`);
  }
  if (provider === "openai-compatible" && !baseURL)
    throw new Error(`[eval-simulate] ${id} needs a baseURL (the OpenAI-compatible endpoint, e.g. http://localhost:11434/v1)`);
  return { provider, model, id, ...(baseURL ? { baseURL } : {}) };
}

/**
 * The key a run would use, or why it has none. An OpenAI-compatible endpoint (a local Ollama,
 * say) needs no key; every other provider does.
 *
 * @example missingKey(parseModel("openai:gpt-4.1"), process.env); // "OPENAI_API_KEY" when unset
 */
export function missingKey(spec: ModelSpec, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (spec.provider === "openai-compatible") return undefined;
  const variable = KEY_VARIABLES[spec.provider];
  return env[variable] ? undefined : variable;
}
