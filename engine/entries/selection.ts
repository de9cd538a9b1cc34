/**
 * `eval-simulate/selection`: tool-selection evals and description experiments. The served
 * catalog and fixtures checked against it, scores and the gate, and variants. Named exports
 * only. Running fixtures, their report, comparing runs and bad calls are `eval-simulate/runner`'s;
 * their old names here are deprecated aliases (selection-moved.ts).
 */
export { selectionCatalog } from "../judge/selection/index.js";
export type { SelectionCatalog, SelectionTool } from "../judge/selection/index.js";
export { resolveFixtures } from "../judge/selection/index.js";
export type { ResolvedFixture } from "../judge/selection/index.js";
export { scoreSelection, toolMetrics } from "../judge/selection/index.js";
export type { AreaScore, Rate, SelectionOutcome, SelectionScore, ToolMetrics } from "../judge/selection/index.js";
export { evaluateGate } from "../judge/selection/index.js";
export type { Gate, GateDecision, GateThresholds } from "../judge/selection/index.js";
export { applyVariant, loadVariant, variantCatalog } from "../judge/selection/index.js";
export type { ToolOverride, Variant } from "../judge/selection/index.js";
export { DEFAULT_SELECTION_SYSTEM, runSelection } from "./selection-moved.js";
export type { SelectionLine, SelectionRun, SelectionRunOptions } from "./selection-moved.js";
export { renderSelectionJson, renderSelectionMarkdown, renderSelectionText, summarizeSelection } from "./selection-moved.js";
export type { SelectionSummary } from "./selection-moved.js";
export { compareRuns } from "./selection-moved.js";
export type { CaseChange, CaseChangeKind, Comparison, Proposal, RunSide, ToolDelta } from "./selection-moved.js";
export { renderCompareJson, renderCompareMarkdown, renderCompareText } from "./selection-moved.js";
export { badCalls, callKey } from "./selection-moved.js";
export type { BadCallCounts, BadCallReport } from "./selection-moved.js";
