/** The door of engine/judge/selection/: what other folders may import from it. */
export { badCalls, callKey } from "./bad-calls.js";
export type { BadCallCounts, BadCallReport, OutsideRequest, OutsideRequests } from "./bad-calls.js";
export { selectionCatalog } from "./catalog.js";
export type { SelectionCatalog, SelectionTool } from "./catalog.js";
export { checkSelectionContent, resolveFixtures } from "./check-selection.js";
export type { ResolvedFixture } from "./check-selection.js";
export { evaluateGate } from "./gate.js";
export type { Gate, GateDecision, GateThresholds } from "./gate.js";
export { scoreSelection, toolMetrics, top1Hit } from "./score.js";
export type { AreaScore, Rate, SelectionOutcome, SelectionScore, ToolMetrics } from "./score.js";
export { applyVariant, loadVariant, variantCatalog } from "./variant.js";
export type { ToolOverride, Variant } from "./variant.js";
