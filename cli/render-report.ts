import { renderJunit } from "../engine/eval/results/index.js";
import { renderSummaryJson, renderSummaryMarkdown, renderSummaryText } from "../engine/eval/results/index.js";
import type { TrialLine } from "../engine/eval/results/index.js";
import type { RunSummary } from "../engine/eval/results/index.js";

/** The formats `eval --format` and `report --format` print. */
export const REPORT_FORMATS = ["text", "markdown", "junit", "json"] as const;

/** A run's report in one of the formats. */
export function renderReport(summary: RunSummary, lines: readonly TrialLine[], format: (typeof REPORT_FORMATS)[number]): string {
  switch (format) {
    case "markdown":
      return renderSummaryMarkdown(summary);
    case "junit":
      return renderJunit(summary, lines);
    case "json":
      return renderSummaryJson(summary);
    default:
      return renderSummaryText(summary);
  }
}
