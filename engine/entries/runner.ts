/**
 * Running evals: every case of an evals file, many trials at once against sessions of the
 * fakes, each judged, with results, resume, budgets and reports. Named exports only.
 */
export { runEvals } from "../eval/runner/index.js";
export type { EvalsResult, HostChoice, RunEvalsOptions } from "../eval/runner/index.js";
export { readResults } from "../eval/results/index.js";
export type { TrialLine, TrialStatus } from "../eval/results/index.js";
export { summarise } from "../eval/results/index.js";
export type { CaseSummary, RunSummary } from "../eval/results/index.js";
export { renderSummaryMarkdown, renderSummaryText } from "../eval/results/index.js";
export { renderJunit } from "../eval/results/index.js";
export { passAtK, passHatK } from "../eval/results/index.js";
export type { AgentHost, AgentOutcome, AgentTrial } from "../eval/hosts/index.js";
export { PRICES, UnknownPriceError } from "../eval/models/index.js";
export type { Price } from "../eval/models/index.js";
export { JUDGE_PROMPT_VERSION, judgmentsFile, rubricJudge } from "../eval/rubrics/index.js";
export type { RubricJudgeOptions, RunRubricJudge } from "../eval/rubrics/index.js";
