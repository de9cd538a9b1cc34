/**
 * `eval-simulate/selection`: tool-selection evals and description experiments. The served
 * catalog and fixtures checked against it, scores and the gate, variants, comparing two runs,
 * and bad calls in a trial's record. Named exports only. Running fixtures and comparing runs live
 * in engine/runner (they run models and read results files); this entry re-exports them, so the
 * folders keep one direction: runner imports selection, never the reverse.
 */
export { selectionCatalog } from "./catalog.js";
export type { SelectionCatalog, SelectionTool } from "./catalog.js";
export { resolveFixtures } from "./check-selection.js";
export type { ResolvedFixture } from "./check-selection.js";
export { scoreSelection, toolMetrics } from "./score.js";
export type { AreaScore, Rate, SelectionOutcome, SelectionScore, ToolMetrics } from "./score.js";
export { evaluateGate } from "./gate.js";
export type { Gate, GateDecision, GateThresholds } from "./gate.js";
export { DEFAULT_SELECTION_SYSTEM, runSelection } from "../runner/run-selection.js";
export type { SelectionLine, SelectionRun, SelectionRunOptions } from "../runner/run-selection.js";
export { renderSelectionJson, renderSelectionMarkdown, renderSelectionText, summarizeSelection } from "../runner/selection-report.js";
export type { SelectionSummary } from "../runner/selection-report.js";
export { applyVariant, loadVariant, variantCatalog } from "./variant.js";
export type { ToolOverride, Variant } from "./variant.js";
export { compareRuns } from "../runner/compare.js";
export type { CaseChange, CaseChangeKind, Comparison, Proposal, RunSide, ToolDelta } from "../runner/compare.js";
export { renderCompareJson, renderCompareMarkdown, renderCompareText } from "../runner/compare-report.js";
export { badCalls, callKey } from "./bad-calls.js";
export type { BadCallCounts, BadCallReport } from "./bad-calls.js";
