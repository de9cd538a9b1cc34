/**
 * Running evals: every case of an evals file, many trials at once against sessions of the
 * fakes, each judged, with results, resume, budgets and reports. Named exports only.
 */
export { runEvals } from "./run-evals.js";
export type { EvalsResult, HostChoice, RunEvalsOptions } from "./run-evals.js";
export { readResults } from "./results-file.js";
export type { TrialLine, TrialStatus } from "./results-file.js";
export { summarise } from "./run-summary.js";
export type { CaseSummary, RunSummary } from "./run-summary.js";
export { renderSummaryMarkdown, renderSummaryText } from "./report-text.js";
export { renderJunit } from "./report-junit.js";
export { passAtK, passHatK } from "./pass-at-k.js";
export type { AgentHost, AgentOutcome, AgentTrial } from "./agent-host.js";
export { PRICES, UnknownPriceError } from "./pricing.js";
export type { Price } from "./pricing.js";
