import { renderJunit } from "../engine/runner/report-junit.js";
import { renderSummaryJson, renderSummaryMarkdown, renderSummaryText } from "../engine/runner/report-text.js";
import type { TrialLine } from "../engine/runner/results-file.js";
import type { RunSummary } from "../engine/runner/run-summary.js";

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
