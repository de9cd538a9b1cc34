/** The door of engine/eval/results/: what other folders may import from it. */
export { renderCompareJson, renderCompareMarkdown, renderCompareText } from "./compare-report.js";
export { compareRuns } from "./compare.js";
export type { CaseChange, CaseChangeKind, CaseSide, Comparison, Proposal, RunSide, ToolDelta } from "./compare.js";
export { passAtK, passHatK } from "./pass-at-k.js";
export { renderJunit } from "./report-junit.js";
export { renderSummaryJson, renderSummaryMarkdown, renderSummaryText } from "./report-text.js";
export { appendResult, doneTrials, readResults, trialKey } from "./results-file.js";
export type { TrialLine, TrialStatus } from "./results-file.js";
export { resultsPanel } from "./results-panel.js";
export { summarise } from "./run-summary.js";
export type { CaseSummary, JudgeSpend, PlannedCase, RunSummary } from "./run-summary.js";
