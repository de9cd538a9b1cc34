/**
 * engine/eval/results/: what a run leaves. The NDJSON results file, one line per trial with resume
 * keys (`results-file.ts`); per-case pass rates with pass@k and pass^k and thresholds
 * (`run-summary.ts`, `pass-at-k.ts`); the run's verdict and exit code, PRELIMINARY = 2
 * (`run-status.ts`); reports as text, Markdown, JSON and JUnit XML (`report-text.ts`,
 * `report-junit.ts`); `compareRuns` of two results files and its report (`compare.ts`,
 * `compare-report.ts`); and the inspector's results panel (`results-panel.ts`), which the CLI hands
 * to the host.
 *
 * Other folders import this folder through this file only.
 */
export { renderCompareJson, renderCompareMarkdown, renderCompareText } from "./compare-report.js";
export { compareRuns } from "./compare.js";
export type { CaseChange, CaseChangeKind, Comparison, Proposal, RunSide, ToolDelta } from "./compare.js";
export { passAtK, passHatK } from "./pass-at-k.js";
export { renderJunit } from "./report-junit.js";
export { renderSummaryJson, renderSummaryMarkdown, renderSummaryText } from "./report-text.js";
export { appendResult, doneTrials, readResults, trialKey } from "./results-file.js";
export type { TrialLine, TrialStatus } from "./results-file.js";
export { resultsPanel } from "./results-panel.js";
export { summarise, summarize } from "./run-summary.js";
export type { CaseSummary, PlannedCase, RunSummary } from "./run-summary.js";
