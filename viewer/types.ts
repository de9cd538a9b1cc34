/** The shapes the page reads, as the engine writes them (type imports only: nothing of the engine is bundled). */
export type { ViewData, ViewRun, ViewSelection } from "../engine/tools/view/index.js";
export type { EntityDiff, TimelineCall } from "../engine/serve/inspect/index.js";
export type { CaseSummary, Comparison, TrialLine } from "../engine/eval/results/index.js";

/** One assertion's result as the judge writes it on a trial line. */
export interface AssertionView {
  assertion: string;
  kind?: string;
  passed?: boolean;
  status?: "passed" | "failed" | "not_evaluated" | string;
  message?: string;
  evidence?: unknown;
}
