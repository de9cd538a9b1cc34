/**
 * Rubric assertions as the judge sees them: what a judge model is asked (the criterion, the task,
 * the answer, the transcript, a JSONata view of the run) and how its judgment becomes a result.
 * The model itself is not here: the judge layer runs no model, so whoever calls `judgeRun` hands
 * in a `RubricJudge` (the runner's reads the cache and asks the model, engine/eval/rubrics/).
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { StatesByFake } from "../../core/record/index.js";
import { evaluateBounded, type SharedFunctions } from "./expressions.js";
import type { JudgedCall } from "./fake-maps.js";
import { worldDiff } from "./state-diff.js";
import { type AssertionResult, failed, type JudgeCost, notEvaluated, passed } from "./types.js";

type Rubric = NonNullable<EvalCase["expect"]["rubrics"]>[number];

/** One rubric to judge, with everything the judge model is shown. */
export interface RubricRequest {
  case: string;
  name: string;
  rubric: string;
  /** The rubric's own judge model, when it names one. */
  model?: string;
  /** What the agent was asked (the case's prompt). */
  task?: string;
  answer?: string;
  transcript?: unknown;
  /** The value of the rubric's `context` expression. */
  context?: unknown;
}

/** What it cost to get a judgment (zero from the cache). */
export interface JudgmentCost {
  requests: number;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
}

/** A judge's answer: a judgment (new or cached), none to be had without a key, or an error. */
export type RubricJudgment =
  | ({ status: "judged"; model: string; verdict: "pass" | "fail"; score: number; reasoning: string; cached: boolean; key: string } & JudgmentCost)
  | ({ status: "unjudged"; reason: string } & Partial<JudgmentCost>)
  | ({ status: "error"; reason: string; model?: string } & Partial<JudgmentCost>);

/** Grades rubrics: the runner's and verify's judge reads the cache and asks a model. */
export interface RubricJudge {
  judge(request: RubricRequest): Promise<RubricJudgment>;
}

/** The run as the rubrics' `context` expressions and the judge see it. */
export interface RubricRun {
  initial: StatesByFake;
  final: StatesByFake;
  calls: readonly JudgedCall[];
  answer?: string;
  transcript?: unknown;
  /** The manifest's shared JSONata functions, callable from a rubric's `context`. */
  functions?: SharedFunctions;
}

const callView = (call: JudgedCall) => ({ number: call.number, server: call.server, tool: call.tool, args: call.args, failed: call.failed });
const showScore = (x: number) => x.toFixed(2).replace(/\.?0+$/, "") || "0";

/** A judgment as an assertion result. */
function resultOf(label: string, rubric: Rubric, judgment: RubricJudgment): AssertionResult {
  if (judgment.status === "unjudged") return { ...notEvaluated("rubric", label, judgment.reason), unjudged: true };
  if (judgment.status === "error") return notEvaluated("rubric", label, judgment.reason, judgment.model ? { model: judgment.model } : undefined);
  const ok = rubric.threshold === undefined ? judgment.verdict === "pass" : judgment.score >= rubric.threshold;
  const by = `${judgment.verdict}, score ${showScore(judgment.score)}${rubric.threshold === undefined ? "" : ` (threshold ${showScore(rubric.threshold)})`}, by ${judgment.model}${judgment.cached ? " (cached)" : ""}`;
  const evidence = {
    model: judgment.model,
    verdict: judgment.verdict,
    score: judgment.score,
    reasoning: judgment.reasoning,
    cached: judgment.cached,
    key: judgment.key,
  };
  return (ok ? passed : failed)("rubric", label, `${by}: ${judgment.reasoning}`, evidence);
}

/**
 * Judges a case's rubrics: each one's context evaluated, its request handed to the judge, its
 * judgment a result; with no judge, or no answer and no transcript, it is not evaluated.
 *
 * @example const { results, cost } = await judgeRubrics(case, run, judge);
 */
export async function judgeRubrics(
  c: { id: string; prompt?: string; expect: EvalCase["expect"] },
  run: RubricRun,
  judge: RubricJudge | undefined,
): Promise<{ results: AssertionResult[]; cost?: JudgeCost }> {
  const rubrics = c.expect.rubrics ?? [];
  if (rubrics.length === 0) return { results: [] };
  const cost: JudgeCost = { requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0, cached: 0, judged: 0 };
  const results: AssertionResult[] = [];
  const calls = run.calls.map(callView);
  for (const [i, rubric] of rubrics.entries()) {
    const label = `rubrics[${i}] ${rubric.name}`;
    if (run.answer === undefined && run.transcript === undefined) {
      results.push(
        notEvaluated(
          "rubric",
          label,
          "the run has no final message and no transcript for the judge to read (write answer.txt or transcript.json in the run folder)",
        ),
      );
      continue;
    }
    let context: unknown;
    if (rubric.context !== undefined) {
      const out = await evaluateBounded(
        rubric.context,
        run.final,
        {
          initial: run.initial,
          final: run.final,
          calls,
          diff: worldDiff(run.initial, run.final),
          answer: run.answer,
        },
        run.functions,
      );
      if (!out.ok) {
        results.push(failed("rubric", label, `the context expression failed: ${out.message}`));
        continue;
      }
      context = out.value;
    }
    if (!judge) {
      results.push({
        ...notEvaluated("rubric", label, "no rubric judge was given (eval and verify give one; judgeRun takes it as `rubrics`)"),
        unjudged: true,
      });
      continue;
    }
    const request: RubricRequest = {
      case: c.id,
      name: rubric.name,
      rubric: rubric.rubric,
      ...(rubric.model === undefined ? {} : { model: rubric.model }),
      ...(c.prompt === undefined ? {} : { task: c.prompt }),
      ...(run.answer === undefined ? {} : { answer: run.answer }),
      ...(run.transcript === undefined ? {} : { transcript: run.transcript }),
      ...(context === undefined ? {} : { context }),
    };
    const judgment = await judge.judge(request);
    cost.requests += judgment.requests ?? 0;
    cost.usage.inputTokens += judgment.usage?.inputTokens ?? 0;
    cost.usage.outputTokens += judgment.usage?.outputTokens ?? 0;
    cost.costUsd += judgment.costUsd ?? 0;
    if (judgment.status === "judged") cost[judgment.cached ? "cached" : "judged"]++;
    results.push(resultOf(label, rubric, judgment));
  }
  return { results, cost };
}
