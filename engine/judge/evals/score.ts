/**
 * Scores: every assertion counts by its weight (1 unless the case says otherwise), a trial's score
 * is the weighted share of its evaluated assertions that passed (those not evaluated are left out,
 * and counted), a broken minefield zeroes it, and a case with `minScore` passes a trial by its score
 * instead of by every assertion.
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import { milestonePlan } from "./milestones.js";
import type { AssertionResult, Score, Verdict } from "./types.js";

type Expect = EvalCase["expect"];

/** The index in an `xs[3] name` label. */
const indexIn = (label: string) => Number(/\[(\d+)\]/.exec(label)?.[1] ?? Number.NaN);

/** The weight the case gives one result, from the assertion it came from. */
function weightOf(expect: Expect, r: AssertionResult): number | undefined {
  const w = expect.weights ?? {};
  switch (r.kind) {
    case "calls":
      return expect.calls?.[indexIn(r.assertion)]?.weight;
    case "order":
    case "exclusive":
    case "callCount":
      return w[r.kind];
    case "state": {
      const which = /^state\.(changed|unchanged|only|readOnly)\b/.exec(r.assertion)?.[1] as "changed" | "unchanged" | "only" | "readOnly" | undefined;
      return which ? w[which] : undefined;
    }
    case "diff":
      return expect.state?.diff?.[r.assertion.replace(/^state\.diff /, "")]?.weight;
    case "assert":
      return expect.state?.assert?.[indexIn(r.assertion)]?.weight;
    case "milestone":
      return milestonePlan(expect.milestones).list[indexIn(r.assertion)]?.weight;
    case "never":
      return expect.never?.[indexIn(r.assertion)]?.weight;
    case "golden":
      return Array.isArray(expect.golden) ? w.golden : expect.golden?.weight;
    case "forbidden":
      return w.forbidden;
    case "answer":
      return expect.answer?.weight;
    case "rubric":
      return expect.rubrics?.[indexIn(r.assertion)]?.weight;
    case "turns":
      return w.turns;
    case "transcript":
      return expect.transcript?.[indexIn(r.assertion)]?.weight;
    default:
      return undefined;
  }
}

/**
 * The results with the case's weights on them (`weight` written only where it is not 1).
 *
 * @example weighResults({ calls: [{ tool: "close", weight: 2 }] }, results)[0].weight // 2
 */
export function weighResults(expect: Expect, results: readonly AssertionResult[]): AssertionResult[] {
  return results.map((r) => {
    const weight = weightOf(expect, r);
    return weight === undefined || weight === 1 ? r : { ...r, weight };
  });
}

/** `run` results say whether the run is the case's at all (its starting world, the agent's own failure): preconditions, not scored. */
const scored = (r: AssertionResult) => r.kind !== "run";

/**
 * A trial's score from its weighed results.
 *
 * @example scoreOf([{ status: "passed", weight: 3 }, { status: "failed" }]).score // 0.75
 */
export function scoreOf(results: readonly AssertionResult[]): Score {
  let passed = 0;
  let of = 0;
  let notEvaluated = 0;
  let zeroedBy: string | undefined;
  for (const r of results.filter(scored)) {
    const weight = r.weight ?? 1;
    if (r.status === "not_evaluated") notEvaluated++;
    else {
      of += weight;
      if (r.status === "passed") passed += weight;
    }
    if (r.zeroes && r.status === "failed") zeroedBy ??= r.assertion;
  }
  const score = zeroedBy !== undefined ? 0 : of > 0 ? passed / of : undefined;
  return { ...(score === undefined ? {} : { score }), passed, of, notEvaluated, ...(zeroedBy === undefined ? {} : { zeroedBy }) };
}

/** What is missing: `skipped` when only rubrics no judge could grade, else `not_evaluated`. */
const missing = (open: readonly AssertionResult[]): Verdict["verdict"] => (open.every((r) => r.unjudged) ? "skipped" : "not_evaluated");

/**
 * A trial's verdict. Without `minScore`: `fail` when any assertion failed, else what is missing
 * (see `missing`), else `pass`. With it, the score decides, counting each unevaluated assertion as
 * failed for a pass and as passed for a fail, so a result that could still go either way is
 * never a pass; a run that is not the case's (a `run` precondition not met) is not evaluated.
 *
 * @example verdictOf(results, { minScore: 0.8 }) // "pass" | "fail" | "not_evaluated" | "skipped"
 */
export function verdictOf(results: readonly AssertionResult[], options: { minScore?: number } = {}): Verdict["verdict"] {
  if (options.minScore === undefined || results.some((r) => !scored(r) && r.status !== "passed")) {
    if (results.some((r) => r.status === "failed")) return "fail";
    const open = results.filter((r) => r.status === "not_evaluated");
    if (open.length > 0) return missing(open);
    return results.length > 0 ? "pass" : "not_evaluated";
  }
  const counted = results.filter(scored);
  const score = scoreOf(counted);
  if (score.zeroedBy !== undefined) return score.score! >= options.minScore - 1e-9 ? "pass" : "fail";
  const open = counted.filter((r) => r.status === "not_evaluated");
  const unknown = open.reduce((n, r) => n + (r.weight ?? 1), 0);
  const total = score.of + unknown;
  if (total === 0) return open.length > 0 ? missing(open) : "not_evaluated";
  if (score.passed / total >= options.minScore - 1e-9) return "pass";
  if ((score.passed + unknown) / total < options.minScore - 1e-9) return "fail";
  return missing(open);
}
