/**
 * A successful answer as its tool writes it, including the one step the contract stage cannot
 * take alone: a structured tool whose `answer.text` is a JSONata expression, evaluated (under the
 * same limits as handlers) on the structured content to give the text the real server writes.
 */
import { answerResult, structured } from "../../author/contract/index.js";
import type { AnswerSpec } from "../../author/contract/index.js";
import { compileJsonataHandler, runJsonataHandler } from "../../author/handlers/index.js";
import type { ToolResult } from "../../author/handlers/index.js";
import { labelId } from "../../author/world/index.js";

/** Whether the answer's text is a JSONata expression rather than `json` or `json-pretty`. */
export function textExpressionOf(answer: AnswerSpec): string | undefined {
  return answer.structured === true && answer.text !== undefined && answer.text !== "json" && answer.text !== "json-pretty" ? answer.text : undefined;
}

/**
 * The result answering `value` in the tool's answer (see `answerResult`), with a JSONata text
 * expression evaluated on the structured content (`$` and `$args` are the content). An
 * expression that fails or gives no string throws, which the caller answers as a tool error.
 *
 * @example await answerWithText({ format: "json", structured: true, text: "$string(entities, true)" }, { entities: [] }, limits);
 */
export async function answerWithText(
  answer: AnswerSpec,
  value: unknown,
  limits: { timeoutMs: number; now: string; scenario: string; signal?: AbortSignal },
): Promise<ToolResult> {
  const source = textExpressionOf(answer);
  if (source === undefined) return answerResult(answer, value);
  const compiled = compileJsonataHandler(source);
  if (!compiled.ok) throw new Error(`[eval-simulate] the answer's text expression does not compile: ${compiled.errors[0]?.message}`);
  const ran = await runJsonataHandler(
    compiled.handler,
    { args: value, state: {}, world: {}, now: limits.now, scenario: limits.scenario, labelId, log: () => {} },
    { timeoutMs: limits.timeoutMs, ...(limits.signal && { signal: limits.signal }) },
  );
  if (ran.kind === "fail") throw new Error(ran.message);
  if (typeof ran.value !== "string") {
    throw new Error(`[eval-simulate] the answer's text expression ${JSON.stringify(source)} gave ${JSON.stringify(ran.value)?.slice(0, 80)}, not a string`);
  }
  return structured(value as Record<string, unknown>, { text: { literal: ran.value } });
}
