import { describe, expect, it } from "vitest";
import { renderJunit } from "../../engine/eval/results/report-junit.js";
import { renderSummaryMarkdown, renderSummaryText } from "../../engine/eval/results/report-text.js";
import type { TrialLine } from "../../engine/eval/results/results-file.js";
import { trialLineProblem } from "../../engine/eval/results/trial-line-check.js";
import { summarise } from "../../engine/eval/results/run-summary.js";

const PASSED = "4bf92f3577b34da6a3ce929d0e0e4736";
const FAILED = "0af7651916cd43dd8448eb211c80319c";

const line = (iteration: number, status: TrialLine["status"], traceId?: string): TrialLine => ({
  case: "close-deal",
  iteration,
  model: "script",
  status,
  assertions: status === "fail" ? [{ assertion: "calls", status: "failed", message: "no call" }] : [],
  calls: 1,
  requests: 0,
  usage: { inputTokens: 0, outputTokens: 0 },
  costUsd: 0,
  durationMs: 10,
  startedAt: "2026-10-01T09:00:00.000Z",
  iterations: 2,
  accuracyThreshold: 0.5,
  ...(traceId ? { traceId } : {}),
});

describe("trace ids in the results and the reports", () => {
  it("names the traces of the trials that did not pass in the text and Markdown reports", () => {
    const summary = summarise([line(0, "pass", PASSED), line(1, "fail", FAILED)]);
    expect(summary.cases[0].traces).toEqual([FAILED]);
    expect(renderSummaryText(summary)).toContain(`traces: ${FAILED}`);
    expect(renderSummaryText(summary)).not.toContain(PASSED);
    expect(renderSummaryMarkdown(summary)).toContain(`- traces: \`${FAILED}\``);
  });

  it("puts every trial's trace id in its JUnit test case's properties", () => {
    const lines = [line(0, "pass", PASSED), line(1, "fail", FAILED)];
    const xml = renderJunit(summarise(lines), lines);
    expect(xml).toContain(`<property name="traceId" value="${PASSED}"/>`);
    expect(xml).toContain(`<property name="traceId" value="${FAILED}"/>`);
  });

  it("takes a line's trace id only as 32 hex digits", () => {
    expect(trialLineProblem(line(0, "pass", PASSED))).toBeUndefined();
    expect(trialLineProblem({ ...line(0, "pass"), traceId: "not-a-trace" })).toMatch(/traceId.*32 hex digits/);
  });

  it("says nothing of traces for an untraced run", () => {
    const lines = [line(0, "pass"), line(1, "fail")];
    const summary = summarise(lines);
    expect(summary.cases[0]).not.toHaveProperty("traces");
    expect(renderSummaryText(summary)).not.toContain("traces");
    expect(renderJunit(summary, lines)).not.toContain("traceId");
  });
});
