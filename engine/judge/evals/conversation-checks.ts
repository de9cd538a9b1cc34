/**
 * Judging a conversation: `turns: { min, max }` and `transcript` JSONata assertions over the
 * messages of both sides, from a trial's transcript or a run folder's `transcript.json` written
 * by any harness (`[{ turn, role, content, … }]`, or `{ messages: [...] }`).
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { StatesByFake } from "../../core/record/index.js";
import { evaluateBounded, type SharedFunctions } from "./expressions.js";
import { type AssertionResult, failed, notEvaluated, passed } from "./types.js";

type Expect = EvalCase["expect"];
type Message = Record<string, unknown>;

/**
 * A transcript's messages: a list of `{ role, … }`, or the `messages` of an object; undefined
 * for anything else (a harness's own format the conversation checks cannot read).
 *
 * @example transcriptMessages({ messages: [{ role: "user", content: "hi" }] }) // [{ role: "user", content: "hi" }]
 */
export function transcriptMessages(transcript: unknown): Message[] | undefined {
  const list = transcript && typeof transcript === "object" && !Array.isArray(transcript) ? (transcript as { messages?: unknown }).messages : transcript;
  if (!Array.isArray(list)) return undefined;
  return list.every((m) => m !== null && typeof m === "object" && !Array.isArray(m) && typeof (m as Message).role === "string")
    ? (list as Message[])
    : undefined;
}

/**
 * The turns of a conversation: the highest `turn` its messages carry, else its user messages.
 *
 * @example turnsOf([{ turn: 1, role: "user" }, { turn: 2, role: "user" }]) // 2
 */
export function turnsOf(messages: readonly Message[]): number {
  let highest = 0;
  for (const m of messages) if (typeof m.turn === "number" && Number.isFinite(m.turn)) highest = Math.max(highest, m.turn);
  return highest > 0 ? highest : messages.filter((m) => m.role === "user" && typeof m.content === "string").length;
}

const NO_TRANSCRIPT = "the run has no transcript of messages (a conversation trial keeps one; a run folder's transcript.json holds one)";

/**
 * `turns` and `transcript` of a case's expectations.
 *
 * @example await judgeConversation(expect, run.transcript, run.answer, run.final)
 */
export async function judgeConversation(
  expect: Expect,
  transcript: unknown,
  answer: string | undefined,
  final: StatesByFake,
  functions: SharedFunctions = {},
): Promise<AssertionResult[]> {
  if (!expect.turns && !expect.transcript) return [];
  const messages = transcriptMessages(transcript);
  const results: AssertionResult[] = [];
  if (!messages) {
    if (expect.turns) results.push(notEvaluated("turns", "turns", NO_TRANSCRIPT));
    for (const [i, a] of (expect.transcript ?? []).entries()) results.push(notEvaluated("transcript", `transcript[${i}] ${a.name}`, NO_TRANSCRIPT));
    return results;
  }
  const turns = turnsOf(messages);
  if (expect.turns) {
    const { min, max, exact } = expect.turns;
    const ok = exact !== undefined ? turns === exact : (min === undefined || turns >= min) && (max === undefined || turns <= max);
    const want =
      exact !== undefined
        ? `exactly ${exact}`
        : [min !== undefined ? `at least ${min}` : "", max !== undefined ? `at most ${max}` : ""].filter(Boolean).join(" and ");
    const message = `expected ${want} turns; the conversation took ${turns}`;
    results.push(ok ? passed("turns", "turns", message, { turns }) : failed("turns", "turns", message, { turns }));
  }
  for (const [i, a] of (expect.transcript ?? []).entries()) {
    const label = `transcript[${i}] ${a.name}`;
    const out = await evaluateBounded(a.jsonata, messages, { transcript: messages, turns, answer, final }, functions);
    if (!out.ok) results.push(failed("transcript", label, `the expression failed: ${out.message}`));
    else
      results.push(
        out.truthy ? passed("transcript", label, "the transcript satisfies it") : failed("transcript", label, "the expression is false for the transcript"),
      );
  }
  return results;
}
