/** The door of engine/judge/evals/: what other folders may import from it. */
export { fakeMaps } from "./fake-maps.js";
export { rebuildHistory } from "./history.js";
export type { Commit, History } from "./history.js";
export { judgeRun } from "./judge-run.js";
export type { JudgeInput } from "./judge-run.js";
export { milestonePlan } from "./milestones.js";
export type { MilestonePlan } from "./milestones.js";
export type { JudgmentCost, RubricJudge, RubricJudgment, RubricRequest } from "./rubrics.js";
export { scoreOf, verdictOf, weighResults } from "./score.js";
export { checkEvals, isEvalsFile, loadEvals } from "./load-evals.js";
export type { EvalsCheck } from "./load-evals.js";
export { fetchRun, finalAnswer, readRun } from "./run.js";
export type { Run } from "./run.js";
export type { AssertionResult, AssertionStatus, EvalCase, EvalsDocument, JudgeCost, JudgedCase, Score, Verdict } from "./types.js";
