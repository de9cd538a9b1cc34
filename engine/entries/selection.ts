/**
 * `eval-simulate/selection`: tool-selection evals and description experiments. The served
 * catalog and fixtures checked against it, scores and the gate, variants, comparing two runs,
 * and bad calls in a trial's record. Named exports only. Running fixtures and comparing runs live
 * in engine/runner (they run models and read results files); this entry re-exports them, so the
 * folders keep one direction: runner imports selection, never the reverse.
 */
export { selectionCatalog } from "../judge/selection/index.js";
export type { SelectionCatalog, SelectionTool } from "../judge/selection/index.js";
export { resolveFixtures } from "../judge/selection/index.js";
export type { ResolvedFixture } from "../judge/selection/index.js";
export { scoreSelection, toolMetrics } from "../judge/selection/index.js";
export type { AreaScore, Rate, SelectionOutcome, SelectionScore, ToolMetrics } from "../judge/selection/index.js";
export { evaluateGate } from "../judge/selection/index.js";
export type { Gate, GateDecision, GateThresholds } from "../judge/selection/index.js";
export { DEFAULT_SELECTION_SYSTEM, runSelection } from "../eval/runner/index.js";
export type { SelectionLine, SelectionRun, SelectionRunOptions } from "../eval/runner/index.js";
export { renderSelectionJson, renderSelectionMarkdown, renderSelectionText, summarizeSelection } from "../eval/runner/index.js";
export type { SelectionSummary } from "../eval/runner/index.js";
export { applyVariant, loadVariant, variantCatalog } from "../judge/selection/index.js";
export type { ToolOverride, Variant } from "../judge/selection/index.js";
export { compareRuns } from "../eval/results/index.js";
export type { CaseChange, CaseChangeKind, Comparison, Proposal, RunSide, ToolDelta } from "../eval/results/index.js";
export { renderCompareJson, renderCompareMarkdown, renderCompareText } from "../eval/results/index.js";
export { badCalls, callKey } from "../judge/selection/index.js";
export type { BadCallCounts, BadCallReport } from "../judge/selection/index.js";
