/** The door of engine/judge/evals/: what other folders may import from it. */
export { fakeMaps } from "./fake-maps.js";
export { rebuildHistory } from "./history.js";
export type { Commit, History } from "./history.js";
export { judgeRun, verdictOf } from "./judge-run.js";
export type { JudgeInput } from "./judge-run.js";
export { checkEvals, isEvalsFile, loadEvals } from "./load-evals.js";
export type { EvalsCheck } from "./load-evals.js";
export { fetchRun, finalAnswer, readRun } from "./run.js";
export type { Run } from "./run.js";
export type { AssertionResult, AssertionStatus, EvalCase, EvalsDocument, JudgedCase, Verdict } from "./types.js";
