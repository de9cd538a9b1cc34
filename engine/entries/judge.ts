/**
 * Grading a run: an evals file's cases (calls, state, milestones, minefields, a golden world,
 * the final answer, rubrics by the judge handed in) judged on a recorded run, with a score.
 * Named exports only.
 */
export { judgeRun, scoreOf, verdictOf } from "../judge/evals/index.js";
export type { RubricJudge, RubricJudgment, RubricRequest } from "../judge/evals/index.js";
export type { JudgeInput } from "../judge/evals/index.js";
export { fetchRun, finalAnswer, readRun } from "../judge/evals/index.js";
export type { Run } from "../judge/evals/index.js";
export { checkEvals, isEvalsFile, loadEvals } from "../judge/evals/index.js";
export type { EvalsCheck } from "../judge/evals/index.js";
export { rebuildHistory } from "../judge/evals/index.js";
export type { Commit, History } from "../judge/evals/index.js";
export type { AssertionResult, AssertionStatus, EvalCase, EvalsDocument, JudgeCost, JudgedCase, Score, Verdict } from "../judge/evals/index.js";
