/** The door of engine/eval/runner/: what other folders may import from it. */
export { progressBar } from "./progress-bar.js";
export { runEvals } from "./run-evals.js";
export type { EvalsResult, HostChoice, RunEvalsOptions, RunProgress } from "./run-evals.js";
export { parseShard, shardLabel } from "./shard.js";
export type { Shard } from "./shard.js";
export { DEFAULT_SELECTION_SYSTEM, runSelection } from "./run-selection.js";
export type { SelectionLine, SelectionRun, SelectionRunOptions } from "./run-selection.js";
export { renderSelectionJson, renderSelectionMarkdown, renderSelectionText, summarizeSelection } from "./selection-report.js";
export type { SelectionSummary } from "./selection-report.js";
