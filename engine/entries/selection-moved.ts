/**
 * What `eval-simulate/selection` exported before it moved to `eval-simulate/runner` (running
 * fixtures, their report, comparing runs, bad calls): the same values under the old entry, each
 * marked deprecated so an editor points at the new one. Declared, not re-exported, so the mark
 * holds on every TypeScript version.
 */
import * as runner from "./runner.js";

/** @deprecated Import it from `eval-simulate/runner`. */
export const DEFAULT_SELECTION_SYSTEM: typeof runner.DEFAULT_SELECTION_SYSTEM = runner.DEFAULT_SELECTION_SYSTEM;
/** @deprecated Import it from `eval-simulate/runner`. */
export const runSelection: typeof runner.runSelection = runner.runSelection;
/** @deprecated Import it from `eval-simulate/runner`. */
export const renderSelectionJson: typeof runner.renderSelectionJson = runner.renderSelectionJson;
/** @deprecated Import it from `eval-simulate/runner`. */
export const renderSelectionMarkdown: typeof runner.renderSelectionMarkdown = runner.renderSelectionMarkdown;
/** @deprecated Import it from `eval-simulate/runner`. */
export const renderSelectionText: typeof runner.renderSelectionText = runner.renderSelectionText;
/** @deprecated Import it from `eval-simulate/runner`. */
export const summarizeSelection: typeof runner.summarizeSelection = runner.summarizeSelection;
/** @deprecated Import it from `eval-simulate/runner`. */
export const compareRuns: typeof runner.compareRuns = runner.compareRuns;
/** @deprecated Import it from `eval-simulate/runner`. */
export const renderCompareJson: typeof runner.renderCompareJson = runner.renderCompareJson;
/** @deprecated Import it from `eval-simulate/runner`. */
export const renderCompareMarkdown: typeof runner.renderCompareMarkdown = runner.renderCompareMarkdown;
/** @deprecated Import it from `eval-simulate/runner`. */
export const renderCompareText: typeof runner.renderCompareText = runner.renderCompareText;
/** @deprecated Import it from `eval-simulate/runner`. */
export const badCalls: typeof runner.badCalls = runner.badCalls;
/** @deprecated Import it from `eval-simulate/runner`. */
export const callKey: typeof runner.callKey = runner.callKey;

/** @deprecated Import it from `eval-simulate/runner`. */
export type SelectionLine = runner.SelectionLine;
/** @deprecated Import it from `eval-simulate/runner`. */
export type SelectionRun = runner.SelectionRun;
/** @deprecated Import it from `eval-simulate/runner`. */
export type SelectionRunOptions = runner.SelectionRunOptions;
/** @deprecated Import it from `eval-simulate/runner`. */
export type SelectionSummary = runner.SelectionSummary;
/** @deprecated Import it from `eval-simulate/runner`. */
export type CaseChange = runner.CaseChange;
/** @deprecated Import it from `eval-simulate/runner`. */
export type CaseChangeKind = runner.CaseChangeKind;
/** @deprecated Import it from `eval-simulate/runner`. */
export type Comparison = runner.Comparison;
/** @deprecated Import it from `eval-simulate/runner`. */
export type Proposal = runner.Proposal;
/** @deprecated Import it from `eval-simulate/runner`. */
export type RunSide = runner.RunSide;
/** @deprecated Import it from `eval-simulate/runner`. */
export type ToolDelta = runner.ToolDelta;
/** @deprecated Import it from `eval-simulate/runner`. */
export type BadCallCounts = runner.BadCallCounts;
/** @deprecated Import it from `eval-simulate/runner`. */
export type BadCallReport = runner.BadCallReport;
