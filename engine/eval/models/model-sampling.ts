/**
 * A fake's `sampling/createMessage` answered by the agent's own model, as an MCP host with a model
 * answers it: the request's messages, system prompt and token cap (bounded) sent through the AI
 * SDK, its usage charged to the trial's budget like any other request of the agent.
 */
import type { LanguageModel } from "ai";
import { loadAi } from "./language-model.js";
import type { Budget, Usage } from "./pricing.js";

/** A sampled reply never asks for more than this many tokens, whatever the fake asks. */
const MAX_SAMPLING_TOKENS = 4_096;

/** What a sampling request gets back, and what it cost. */
export interface SampledReply {
  text: string;
  usage: Usage;
}

/**
 * One model request for a sampling request's `params` (MCP's `messages`, `systemPrompt`, `maxTokens`).
 *
 * @example const { text } = await sampleWithModel(model, { messages: [{ role: "user", content: { type: "text", text: "Hi" } }] }, { budget, signal });
 */
export async function sampleWithModel(
  model: LanguageModel,
  params: Record<string, unknown>,
  options: { budget?: Budget; signal?: AbortSignal; temperature?: number },
): Promise<SampledReply> {
  if (options.budget && !options.budget.allows()) throw new Error("[eval-simulate] the budget is spent: the sampling request was not sent");
  const { generateText } = await loadAi();
  const messages = (Array.isArray(params.messages) ? params.messages : []).map((m: { role?: unknown; content?: { type?: unknown; text?: unknown } }) => ({
    role: m.role === "assistant" ? ("assistant" as const) : ("user" as const),
    content: m.content?.type === "text" && typeof m.content.text === "string" ? m.content.text : `[${String(m.content?.type ?? "empty")}]`,
  }));
  if (messages.length === 0) throw new Error("[eval-simulate] the sampling request has no messages");
  const asked = typeof params.maxTokens === "number" && params.maxTokens > 0 ? Math.floor(params.maxTokens) : MAX_SAMPLING_TOKENS;
  const result = await generateText({
    model,
    ...(typeof params.systemPrompt === "string" ? { system: params.systemPrompt } : {}),
    messages,
    maxOutputTokens: Math.min(asked, MAX_SAMPLING_TOKENS),
    temperature: options.temperature ?? 0,
    maxRetries: 0,
    abortSignal: options.signal,
  });
  const usage = { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
  options.budget?.charge(usage);
  return { text: result.text, usage };
}
