/**
 * A model whose every request is a GenAI client span (`chat {model}`) under the trial's trace:
 * its provider, model, usage and finish reason, after the GenAI semantic conventions. Wrapped
 * outside the retries, so one span covers a request and the attempts it took.
 */
import type { LanguageModel } from "ai";
import { endModelRequestSpan, modelRequestSpan } from "../../serve/telemetry/index.js";
import { loadAi } from "./language-model.js";

/** The conventions' names of the providers the runner knows (`gen_ai.provider.name`). */
const PROVIDER_NAMES: Record<string, string> = { google: "gcp.gemini" };

/** What a request's span says of its settings. */
export interface TracedSettings {
  temperature?: number;
  maxTokens?: number;
}

/**
 * `model` with a span per request under `parent` (a W3C `traceparent`).
 *
 * @example const model = await tracedModel(await languageModel(spec, env), trial.traceparent, { temperature: 0 });
 */
export async function tracedModel(model: LanguageModel, parent: string, settings: TracedSettings = {}): Promise<LanguageModel> {
  const { wrapLanguageModel } = await loadAi();
  return wrapLanguageModel({
    model: model as Parameters<typeof wrapLanguageModel>[0]["model"],
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate, model: inner }) => {
        // "anthropic.messages" → "anthropic": the AI SDK's provider id names the API as well.
        const provider = inner.provider.split(".")[0] ?? inner.provider;
        const span = modelRequestSpan(parent, { provider: PROVIDER_NAMES[provider] ?? provider, model: inner.modelId, ...settings });
        try {
          const result = await doGenerate();
          endModelRequestSpan(span, {
            model: result.response?.modelId,
            id: result.response?.id,
            inputTokens: result.usage.inputTokens.total,
            outputTokens: result.usage.outputTokens.total,
            finishReason: result.finishReason.unified,
          });
          return result;
        } catch (error) {
          span.fail(error instanceof Error ? error.name : "Error", error instanceof Error ? error.message : String(error));
          span.end();
          throw error;
        }
      },
    },
  });
}
