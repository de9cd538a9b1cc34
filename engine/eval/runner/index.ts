/**
 * engine/eval/runner/: `runEvals`. Cases selected, a host per case, trials in a bounded pool
 * (`concurrency-pool.ts`), each a secret session of its own on a sessions-only host with its own
 * admin token, judged from its record lines (`trial.ts`, `record-collector.ts`, fed by the host's
 * `onRecord`), with the progress line on a terminal (`progress-bar.ts`), a resume reusing only
 * trials judged against the same case and fakes (`case-hash.ts`); and selection runs, one
 * forced turn per fixture and trial, and their report (`run-selection.ts`, `selection-report.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { progressBar } from "./progress-bar.js";
export { runEvals } from "./run-evals.js";
export type { EvalsResult, HostChoice, RunEvalsOptions, RunProgress } from "./run-evals.js";
export { parseShard, shardLabel } from "./shard.js";
export type { Shard } from "./shard.js";
export { DEFAULT_SELECTION_SYSTEM, runSelection } from "./run-selection.js";
export type { SelectionLine, SelectionRun, SelectionRunOptions } from "./run-selection.js";
export { renderSelectionJson, renderSelectionMarkdown, renderSelectionText, summarizeSelection } from "./selection-report.js";
export type { SelectionSummary } from "./selection-report.js";
