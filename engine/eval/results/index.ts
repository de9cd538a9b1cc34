/**
 * engine/eval/results/: what a run leaves. The NDJSON results file, one line per trial with resume
 * keys, read line by line under caps, appends on a fresh line after a torn one (`results-file.ts`);
 * one writer per file, `<file>.lock` with its pid (`results-lock.ts`); each line's fields checked
 * before a report reads them (`trial-line-check.ts`); a trial's answer and stored record cut to
 * 1 MiB each and a transcript to 4 MiB (`trial-line-fit.ts`); per-case pass rates with pass@k and pass^k and thresholds
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
export type { CaseChange, CaseChangeKind, CaseSide, Comparison, Proposal, RunSide, ToolDelta } from "./compare.js";
export { mergeResults, orderTrials } from "./merge-results.js";
export type { MergedRun, ResultsSource, TrialConflict } from "./merge-results.js";
export { passAtK, passHatK } from "./pass-at-k.js";
export { renderJunit } from "./report-junit.js";
export { renderSummaryJson, renderSummaryMarkdown, renderSummaryText } from "./report-text.js";
export { appendResult, doneLines, doneTrials, readResults, readResultsFile, repairTornLine, RESULTS_LIMITS, trialKey } from "./results-file.js";
export type { ResultsRead, TrialLine, TrialStatus } from "./results-file.js";
export { lockResults } from "./results-lock.js";
export { trialLineProblem } from "./trial-line-check.js";
export { capAnswer, capRecord, capTranscript, cutEvidence, MAX_STORED_RECORD_BYTES, MAX_STORED_TRANSCRIPT_BYTES } from "./trial-line-fit.js";
export { resultsPanel } from "./results-panel.js";
export { summarise, summarize } from "./run-summary.js";
export type { CaseSummary, JudgeSpend, PlannedCase, RunSummary } from "./run-summary.js";
