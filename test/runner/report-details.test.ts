import { describe, expect, it } from "vitest";
import { renderSummaryMarkdown, renderSummaryText } from "../../engine/eval/results/report-text.js";
import type { TrialLine } from "../../engine/eval/results/results-file.js";
import { summarize } from "../../engine/eval/results/run-summary.js";

const line = (c: string, iteration: number, status: TrialLine["status"], assertions: unknown[]): TrialLine => ({
  case: c,
  iteration,
  model: "script",
  status,
  assertions,
  calls: 1,
  requests: 0,
  usage: { inputTokens: 0, outputTokens: 0 },
  costUsd: 0,
  durationMs: 10,
  startedAt: "2026-10-01T09:00:00.000Z",
  iterations: 2,
  accuracyThreshold: 1,
});
const failedAssertion = (n: number) => ({ assertion: `calls[${n}] crm/get-record`, status: "failed", message: `expected call ${n}` });
const GOLDEN = { assertion: "golden", status: "not_evaluated", message: "the golden path cannot be replayed: golden call #1 shop/ship-order failed" };

describe("reports that tell the whole story", () => {
  it("lists every failed assertion up to 20, then says how many more", () => {
    const summary = summarize([
      line(
        "many",
        0,
        "fail",
        Array.from({ length: 15 }, (_, i) => failedAssertion(i)),
      ),
      line(
        "many",
        1,
        "fail",
        Array.from({ length: 15 }, (_, i) => failedAssertion(i + 15)),
      ),
    ]);
    const text = renderSummaryText(summary);
    for (let i = 0; i < 20; i++) expect(text).toContain(`✗ calls[${i}] crm/get-record: expected call ${i}\n`);
    expect(text).not.toContain("calls[20]");
    expect(text).toContain("… and 10 more\n");
    const markdown = renderSummaryMarkdown(summary);
    expect(markdown).toContain("- ✗ calls[19] crm/get-record: expected call 19\n");
    expect(markdown).toContain("- … and 10 more\n");
  });

  it("prints a case whose trials were not evaluated as NOT EVALUATED, with the reason, not as a plain FAIL", () => {
    const summary = summarize([line("golden", 0, "not_evaluated", [GOLDEN]), line("golden", 1, "not_evaluated", [GOLDEN])]);
    const text = renderSummaryText(summary);
    expect(text).toMatch(/^NOT EVALUATED golden {2}\[script\]$/m);
    expect(text).not.toMatch(/^FAIL +golden/m);
    expect(text).toContain("FAIL: 1 case (0 passed, 1 failed (1 not evaluated))\n");
    expect(text).toContain(`○ not evaluated: golden: ${GOLDEN.message}\n`);
    const markdown = renderSummaryMarkdown(summary);
    expect(markdown).toContain("| golden | script | NOT EVALUATED |");
    expect(markdown).toContain(`- ○ not evaluated: golden: ${GOLDEN.message}\n`);
    // A case with a real failure beside a not-evaluated trial still fails, and shows both.
    const mixed = renderSummaryText(summarize([line("mixed", 0, "fail", [failedAssertion(0)]), line("mixed", 1, "not_evaluated", [GOLDEN])]));
    expect(mixed).toMatch(/^FAIL {8}mixed/m);
    expect(mixed).toContain("✗ calls[0] crm/get-record: expected call 0\n");
    expect(mixed).toContain("○ not evaluated: golden: ");
  });
});
