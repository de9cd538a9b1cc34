import type { EvalCase } from "../../../schema/evals/evals.js";
import type { StatesByFake } from "../../core/record/index.js";
import { evaluateBounded, type SharedFunctions } from "./expressions.js";
import type { JudgedCall } from "./fake-maps.js";
import type { Commit, History } from "./history.js";
import { compilePattern, show } from "./match-value.js";
import { worldDiff } from "./state-diff.js";
import { judgeMilestones, milestonePlan, where } from "./milestones.js";
import { touches, worldDependencies } from "./world-dependencies.js";
import { type AssertionResult, failed, notEvaluated, passed } from "./types.js";

type Expect = EvalCase["expect"];
type Named = { name: string; jsonata: string };
type Minefield = NonNullable<Expect["never"]>[number];

/** A call as JSONata assertions see it. */
const callView = (call: JudgedCall) => {
  // In a conversation each call carries its turn and side: `$call.turn` for a milestone "by turn 2".
  const { turn, by } = call.line as { turn?: unknown; by?: unknown };
  return {
    number: call.number,
    server: call.server,
    tool: call.tool,
    args: call.args,
    failed: call.failed,
    ...(typeof turn === "number" ? { turn } : {}),
    ...(by === "user" || by === "agent" ? { by } : {}),
  };
};

/**
 * `state.assert`: expressions with `$initial`, `$final`, `$calls`, `$diff` and `$history` bound.
 *
 * @example await judgeAsserts(expect.state.assert, { initial, final, calls, history })
 */
export async function judgeAsserts(
  asserts: readonly Named[],
  run: { initial: StatesByFake; final: StatesByFake; calls: readonly JudgedCall[]; history: History },
  functions: SharedFunctions = {},
): Promise<AssertionResult[]> {
  const bindings = {
    initial: run.initial,
    final: run.final,
    calls: run.calls.map(callView),
    diff: worldDiff(run.initial, run.final),
    history: run.history.ok
      ? run.history.commits.map((c) => ({
          commit: c.number,
          call: c.call.number,
          fake: c.fake,
          tool: c.call.tool,
          entities: c.entities,
          ...(typeof (c.call.line as { turn?: unknown }).turn === "number" ? { turn: (c.call.line as unknown as { turn: number }).turn } : {}),
        }))
      : [],
  };
  const results: AssertionResult[] = [];
  for (const [i, a] of asserts.entries()) {
    const label = `state.assert[${i}] ${a.name}`;
    const out = await evaluateBounded(a.jsonata, run.final, bindings, functions);
    if (!out.ok) results.push(failed("assert", label, `the expression failed: ${out.message}`));
    else
      results.push(
        out.truthy ? passed("assert", label, "true") : failed("assert", label, `false (the expression gave ${show(out.value)})`, { value: out.value }),
      );
  }
  return results;
}

/**
 * `milestones` (each must become true at some commit, in an order the plan allows: see
 * milestones.ts) and `never` (false in the initial world and after every commit), read from the
 * commit history.
 *
 * @example await judgeHistory(expect, history)
 */
export async function judgeHistory(
  expect: Pick<Expect, "milestones" | "never">,
  history: History,
  functions: SharedFunctions = {},
): Promise<AssertionResult[]> {
  const results: AssertionResult[] = [];
  const plan = milestonePlan(expect.milestones);
  const never = expect.never ?? [];
  if (!history.ok) {
    for (const [i, m] of plan.list.entries())
      results.push(notEvaluated("milestone", `milestones[${i}] ${m.name}`, `the run's history cannot be rebuilt: ${history.reason}`));
    for (const [i, n] of never.entries())
      results.push(notEvaluated("never", `never[${i}] ${n.name}`, `the run's history cannot be rebuilt: ${history.reason}`));
    return results;
  }
  const at = (world: StatesByFake, commit?: Commit) => ({ world, initial: history.initial, call: commit ? callView(commit.call) : undefined });
  results.push(...(await judgeMilestones(plan, history, at, functions)));
  for (const [i, n] of never.entries()) results.push(await judgeNever(n, i, history, at, functions));
  return results;
}

async function judgeNever(
  n: Minefield,
  i: number,
  history: Extract<History, { ok: true }>,
  at: (world: StatesByFake, commit?: Commit) => Record<string, unknown>,
  functions: SharedFunctions,
): Promise<AssertionResult> {
  const label = `never[${i}] ${n.name}`;
  const initial = await evaluateBounded(n.jsonata, history.initial, at(history.initial), functions);
  if (!initial.ok) return failed("never", label, `the expression failed on the initial world: ${initial.message}`);
  if (initial.truthy) return failed("never", label, "already true in the initial world (the scenario breaks it, not the run)");
  const deps = worldDependencies(n.jsonata);
  for (const [c, commit] of history.commits.entries()) {
    // Still false where the commit touched nothing the predicate reads.
    if (!touches(deps, commit.fake, commit.entities)) continue;
    const out = await evaluateBounded(n.jsonata, commit.world, at(commit.world, commit), functions);
    if (!out.ok) return failed("never", label, `the expression failed at ${where(commit)}: ${out.message}`);
    if (!out.truthy) continue;
    // Whether the run undid it later: the end state alone would not have shown the breach.
    let undone: Commit | undefined;
    for (const later of history.commits.slice(c + 1)) {
      if (!touches(deps, later.fake, later.entities)) continue;
      const again = await evaluateBounded(n.jsonata, later.world, at(later.world, later), functions);
      if (again.ok && !again.truthy) {
        undone = later;
        break;
      }
    }
    const note = undone ? `; it was undone at ${where(undone)}, so the final state alone does not show it` : "";
    const result = failed("never", label, `broken at ${where(commit)}${note}`, {
      commit: commit.number,
      call: commit.call.number,
      tool: `${commit.call.server}/${commit.call.tool}`,
      args: commit.call.args,
      changes: commit.changes,
      ...(undone ? { undoneAt: undone.number } : {}),
    });
    // Stepping on a mine is not a partial success: the trial's score is 0 unless the case says otherwise.
    return n.zeroScore === false ? result : { ...result, zeroes: true };
  }
  return passed("never", label, `false in the initial world and after each of ${history.commits.length} commit${history.commits.length === 1 ? "" : "s"}`);
}

/**
 * `answer`: `contains`, `pattern` (+ `flags`) and `jsonata` (`$answer`, `$final`) on the final
 * message; not evaluated when the run has none.
 *
 * @example await judgeAnswer(expect.answer, run.answer, run.final)
 */
export async function judgeAnswer(
  expect: NonNullable<Expect["answer"]>,
  answer: string | undefined,
  final: StatesByFake,
  functions: SharedFunctions = {},
): Promise<AssertionResult[]> {
  if (answer === undefined) return [notEvaluated("answer", "answer", "the run has no final message (write answer.txt or transcript.json in the run folder)")];
  const results: AssertionResult[] = [];
  const quoted = show(answer);
  if (expect.contains !== undefined) {
    results.push(
      answer.includes(expect.contains)
        ? passed("answer", "answer.contains", `the answer contains ${show(expect.contains)}`)
        : failed("answer", "answer.contains", `the answer does not contain ${show(expect.contains)}: ${quoted}`),
    );
  }
  if (expect.pattern !== undefined) {
    const regex = compilePattern(expect.pattern, expect.flags);
    if (regex instanceof Error) results.push(notEvaluated("answer", "answer.pattern", `the pattern does not compile: ${regex.message}`));
    else
      results.push(
        regex.test(answer)
          ? passed("answer", "answer.pattern", `the answer matches /${expect.pattern}/${expect.flags ?? ""}`)
          : failed("answer", "answer.pattern", `the answer does not match /${expect.pattern}/${expect.flags ?? ""}: ${quoted}`),
      );
  }
  if (expect.jsonata !== undefined) {
    const out = await evaluateBounded(expect.jsonata, answer, { answer, final }, functions);
    if (!out.ok) results.push(failed("answer", "answer.jsonata", `the expression failed: ${out.message}`));
    else
      results.push(
        out.truthy
          ? passed("answer", "answer.jsonata", "the answer satisfies the expression")
          : failed("answer", "answer.jsonata", `the expression is false for the answer ${quoted}`),
      );
  }
  return results;
}
