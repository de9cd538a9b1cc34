/**
 * engine/judge/selection/: tool selection, judged. The catalog the MCP fakes serve, with areas
 * (`catalog.ts`); fixtures checked against it for `validate` (`check-selection.ts`); top-1, top-k,
 * per-area scores and per-tool precision, recall and F1 (`score.ts`); `evaluateGate` (`gate.ts`);
 * variants (`variant.ts`); and `badCalls` from a record (`bad-calls.ts`). It imports nothing of the
 * runner.
 *
 * Other folders import this folder through this file only.
 */
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
