import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { compareRuns } from "../../engine/eval/results/compare.js";
import { renderCompareJson, renderCompareMarkdown, renderCompareText } from "../../engine/eval/results/compare-report.js";
import { renderJunit } from "../../engine/eval/results/report-junit.js";
import { renderSummaryJson, renderSummaryMarkdown, renderSummaryText } from "../../engine/eval/results/report-text.js";
import type { TrialLine } from "../../engine/eval/results/results-file.js";
import { summarise } from "../../engine/eval/results/run-summary.js";

const line = (c: string, iteration: number, status: TrialLine["status"], score: number | undefined, extra: Partial<TrialLine> = {}): TrialLine => ({
  case: c,
  iteration,
  model: "script",
  status,
  assertions: [],
  calls: 1,
  requests: 0,
  usage: { inputTokens: 0, outputTokens: 0 },
  costUsd: 0,
  durationMs: 10,
  startedAt: "2026-10-01T09:00:00.000Z",
  iterations: 2,
  accuracyThreshold: 0.5,
  ...(score === undefined ? {} : { score }),
  ...extra,
});
const judge = { requests: 2, usage: { inputTokens: 300, outputTokens: 40 }, costUsd: 0.0012, judged: 1, cached: 1 };

const lines = [
  line("close-deal", 0, "pass", 1, { minScore: 0.8, judge }),
  line("close-deal", 1, "fail", 0.5, { minScore: 0.8 }),
  line("read-only", 0, "pass", 1),
  line("read-only", 1, "pass", 1),
];

describe("scores in the reports", () => {
  const summary = summarise(lines);

  it("gives each case the mean score of its trials beside pass rate, pass^k and pass@k, and the judge's spend", () => {
    expect(summary.cases.map((c) => [c.case, c.meanScore, c.minScore])).toEqual([
      ["close-deal", 0.75, 0.8],
      ["read-only", 1, undefined],
    ]);
    expect(summary.cases[0].judge).toEqual(judge);
    expect(summary.judge).toEqual(judge);
    expect(summary.costUsd).toBeCloseTo(0.0012);
    // A trial not run or skipped has no score to count.
    expect(summarise([...lines, line("read-only", 2, "not_run", 0)]).cases[1].meanScore).toBe(1);
    expect(Number.isNaN(summarise([line("unscored", 0, "pass", undefined)]).cases[0].meanScore)).toBe(true);
  });

  it("prints it in text, markdown and JSON", () => {
    const text = renderSummaryText(summary);
    expect(text).toMatch(/pass@2 100%; mean score 0\.75 \(min 0\.80\)\n/);
    expect(text).toContain("judge: 1 judged, 1 from the cache, tokens in/out 300/40, $0.0012");
    const markdown = renderSummaryMarkdown(summary);
    expect(markdown).toContain("| pass@k | mean score | tool calls |");
    expect(markdown).toMatch(/\| close-deal \| script \| .* \| 0\.75 \(min 0\.80\) \| 2 \|/);
    const json = JSON.parse(renderSummaryJson(summarise([...lines, line("unscored", 0, "pass", undefined)])));
    expect(json.cases.map((c: { meanScore: number | null }) => c.meanScore)).toEqual([0.75, 1, null]);
  });

  it("puts the case's mean score and each trial's score into JUnit as properties", () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(renderJunit(summary, lines));
    const [closeDeal] = xml.testsuites.testsuite;
    expect(closeDeal.properties.property).toEqual([
      { name: "meanScore", value: "0.75" },
      { name: "minScore", value: "0.8" },
    ]);
    expect(closeDeal.testcase.map((t: { properties: { property: { value: string } } }) => t.properties.property.value)).toEqual(["1", "0.5"]);
  });
});

describe("scores in compare", () => {
  it("compares mean scores, overall and per case, even where pass rates tie", () => {
    const candidate = [line("close-deal", 0, "pass", 1), line("close-deal", 1, "fail", 0.9), line("read-only", 0, "pass", 1), line("read-only", 1, "pass", 1)];
    const comparison = compareRuns(lines, candidate);
    expect(comparison.baseline.meanScore).toBeCloseTo(0.875);
    expect(comparison.candidate.meanScore).toBeCloseTo(0.975);
    expect(comparison.meanScoreDelta).toBeCloseTo(0.1);
    expect(comparison.cases.find((c) => c.case === "close-deal")).toMatchObject({
      change: "unchanged-failing",
      baseline: { meanScore: 0.75 },
      candidate: { meanScore: 0.95 },
    });
    expect(comparison.cases.find((c) => c.case === "close-deal")!.scoreDelta).toBeCloseTo(0.2);
    expect(renderCompareText(comparison)).toContain("  mean score 0.88 → 0.97  (+0.10)\n  scores moved (1): close-deal 0.75 → 0.95 (+0.20)\n");
    expect(renderCompareMarkdown(comparison)).toContain("| mean score | 0.88 | 0.97 | +0.10 |");
    expect(renderCompareMarkdown(comparison)).toContain("- scores moved: close-deal 0.75 → 0.95 (+0.20)\n- improved: none");
    expect(JSON.parse(renderCompareJson(comparison)).meanScoreDelta).toBeCloseTo(0.1);
    // Runs from before scores were stored compare as they did, with no score line.
    const unscored = compareRuns([line("a", 0, "pass", undefined)], [line("a", 0, "pass", undefined)]);
    expect(renderCompareText(unscored)).not.toContain("mean score");
    expect(JSON.parse(renderCompareJson(unscored)).meanScoreDelta).toBeNull();
  });
});
