/**
 * `eval-simulate/selection`: tool-selection evals and description experiments. The served
 * catalog and fixtures checked against it, scores and the gate, variants, comparing two runs,
 * and bad calls in a trial's record. Named exports only.
 */
export { selectionCatalog } from "./catalog.js";
export type { SelectionCatalog, SelectionTool } from "./catalog.js";
export { resolveFixtures } from "./check-selection.js";
export type { ResolvedFixture } from "./check-selection.js";
export { scoreSelection, toolMetrics } from "./score.js";
export type { AreaScore, Rate, SelectionOutcome, SelectionScore, ToolMetrics } from "./score.js";
export { evaluateGate } from "./gate.js";
export type { Gate, GateDecision, GateThresholds } from "./gate.js";
export { DEFAULT_SELECTION_SYSTEM, runSelection } from "./run-selection.js";
export type { SelectionLine, SelectionRun, SelectionRunOptions } from "./run-selection.js";
export { renderSelectionJson, renderSelectionMarkdown, renderSelectionText, summarizeSelection } from "./selection-report.js";
export type { SelectionSummary } from "./selection-report.js";
export { applyVariant, loadVariant, variantCatalog } from "./variant.js";
export type { ToolOverride, Variant } from "./variant.js";
export { compareRuns } from "./compare.js";
export type { CaseChange, CaseChangeKind, Comparison, Proposal, RunSide, ToolDelta } from "./compare.js";
export { renderCompareJson, renderCompareMarkdown, renderCompareText } from "./compare-report.js";
export { badCalls, callKey } from "./bad-calls.js";
export type { BadCallCounts, BadCallReport } from "./bad-calls.js";
