/**
 * Grading a run: an evals file's cases (calls, state, milestones, minefields, a golden world,
 * the final answer) judged on a recorded run. Named exports only.
 */
export { judgeRun, verdictOf } from "./judge-run.js";
export type { JudgeInput } from "./judge-run.js";
export { fetchRun, finalAnswer, readRun } from "./run.js";
export type { Run } from "./run.js";
export { checkEvals, isEvalsFile, loadEvals } from "./load-evals.js";
export type { EvalsCheck } from "./load-evals.js";
export { rebuildHistory } from "./history.js";
export type { Commit, History } from "./history.js";
export type { AssertionResult, AssertionStatus, EvalCase, EvalsDocument, JudgedCase, Verdict } from "./types.js";
