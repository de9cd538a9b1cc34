/**
 * The AI SDK model for a ModelSpec. `ai` and the provider packages are optional peer
 * dependencies: loaded here, on demand, so a Recipe that never runs a model never installs them.
 */
import type { LanguageModel } from "ai";
import { KEY_VARIABLES, type ModelSpec, PROVIDER_PACKAGES } from "./model-spec.js";
import { readableAnswer } from "./model-output.js";
import { type RetryOptions, withRetries } from "./retry.js";
import { type RequestLimits, timedFetch } from "./timed-fetch.js";

/** A package the run needs is not installed: says which, at the version this engine is tested with. */
export class MissingPeerError extends Error {
  constructor(pkg: string) {
    super(`[eval-simulate] running a model needs ${pkg}, ai@6.0.325 and zod@4: npm install --save-dev ${pkg} ai@6.0.325 zod@4`);
    this.name = "MissingPeerError";
  }
}

async function load<T>(specifier: string, pkg: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND") throw new MissingPeerError(pkg);
    throw error;
  }
}

/** The `ai` package, loaded on demand. */
export function loadAi(): Promise<typeof import("ai")> {
  return load<typeof import("ai")>("ai", "ai@6.0.325");
}

/**
 * The provider's chat model, wrapped so each request (never a whole agent loop, whose tool calls
 * have already changed the world) is retried on transient failures, each attempt within the
 * request limits (its fetch), the back-off cut short by the call's own abort signal; an answer
 * the runner cannot take (arguments nested past every limit) is a ModelOutputError.
 *
 * @example const model = await languageModel(parseModel("anthropic:claude-sonnet-4-5"), process.env);
 */
export async function languageModel(
  spec: ModelSpec,
  env: NodeJS.ProcessEnv = process.env,
  retry: RetryOptions = {},
  limits: RequestLimits = {},
): Promise<LanguageModel> {
  const pkg = PROVIDER_PACKAGES[spec.provider];
  const apiKey = env[KEY_VARIABLES[spec.provider]];
  const fetch = timedFetch(limits);
  let model: LanguageModel;
  switch (spec.provider) {
    case "anthropic": {
      const { createAnthropic } = await load<typeof import("@ai-sdk/anthropic")>("@ai-sdk/anthropic", pkg);
      model = createAnthropic({ apiKey, fetch, baseURL: spec.baseURL ?? env.ANTHROPIC_BASE_URL })(spec.model);
      break;
    }
    case "openai": {
      const { createOpenAI } = await load<typeof import("@ai-sdk/openai")>("@ai-sdk/openai", pkg);
      model = createOpenAI({ apiKey, fetch, baseURL: spec.baseURL ?? env.OPENAI_BASE_URL }).chat(spec.model);
      break;
    }
    case "google": {
      const { createGoogleGenerativeAI } = await load<typeof import("@ai-sdk/google")>("@ai-sdk/google", pkg);
      model = createGoogleGenerativeAI({ apiKey, fetch, baseURL: spec.baseURL ?? env.GOOGLE_GENERATIVE_AI_BASE_URL })(spec.model);
      break;
    }
    case "openai-compatible": {
      const { createOpenAICompatible } = await load<typeof import("@ai-sdk/openai-compatible")>("@ai-sdk/openai-compatible", pkg);
      // Structured output sends the judgment's schema (response_format json_schema), as Ollama, vLLM and LM Studio take it.
      model = createOpenAICompatible({ name: "openai-compatible", baseURL: spec.baseURL!, apiKey, fetch, supportsStructuredOutputs: true }).chatModel(
        spec.model,
      );
      break;
    }
  }
  const { wrapLanguageModel } = await loadAi();
  return wrapLanguageModel({
    model: model as Parameters<typeof wrapLanguageModel>[0]["model"],
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: ({ doGenerate, params }) => withRetries(() => readableAnswer(doGenerate), { ...retry, signal: params.abortSignal ?? retry.signal }),
    },
  });
}
