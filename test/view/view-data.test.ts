import { describe, expect, it } from "vitest";
import type { TrialLine } from "../../engine/eval/results/index.js";
import { viewData } from "../../engine/tools/view/index.js";
import { scriptJson, viewerPage } from "../../engine/serve/inspect/index.js";
import { trialLine } from "../support/trial-lines.js";

const line = (c: string, iteration: number, status: TrialLine["status"], extra: Partial<TrialLine> & Record<string, unknown> = {}): TrialLine =>
  trialLine({ case: c, iteration, status, startedAt: "2026-12-01T00:00:00.000Z", ...extra });

describe("the viewer's data", () => {
  it("gives a case of thousands of trials a pass^k curve of numbers over every k", () => {
    const lines = Array.from({ length: 3000 }, (_, i) => line("many", i, i % 4 === 3 ? "fail" : "pass"));
    const curve = viewData([{ files: ["big.ndjson"], lines }]).runs[0].curves["many@script"];
    expect(curve).toHaveLength(3000);
    expect(curve.every((p) => Number.isFinite(p) && p >= 0 && p <= 1)).toBe(true);
    expect(curve[0]).toBe(0.75);
    expect(curve[1]).toBeCloseTo((2250 / 3000) * (2249 / 2999), 12);
    expect(curve.at(-1)).toBe(0);
    const all = viewData([{ files: ["pass.ndjson"], lines: lines.map((l) => ({ ...l, status: "pass" as const })) }]).runs[0].curves["many@script"];
    expect(all.every((p) => p === 1)).toBe(true);
  });

  it("gives each case its pass^k curve over k and compares the first two runs", () => {
    const base = [line("a", 0, "pass"), line("a", 1, "fail"), line("a", 2, "pass"), line("b", 0, "fail")];
    const candidate = [line("a", 0, "pass"), line("b", 0, "pass")];
    const data = viewData([
      { files: ["base.ndjson"], lines: base },
      { files: ["candidate.ndjson"], lines: candidate },
    ]);
    expect(data.runs[0].curves["a@script"]).toEqual([2 / 3, 1 / 3, 0]);
    expect(data.runs[0].label).toBe("base.ndjson");
    expect(data.comparison?.cases.find((c) => c.case === "b")?.change).toBe("improved");
    expect(data.runs[0].selection).toBeUndefined();
  });

  it("scores a selection run per tool and pairs expected with chosen tools per area", () => {
    const pick = (c: string, expected: string[], chosen: string[]) =>
      line(c, 0, expected.includes(chosen[0]) ? "pass" : "fail", { kind: "selection", area: "files", expected, chosen });
    const data = viewData([
      { files: ["s.ndjson"], lines: [pick("r1", ["f/read"], ["f/read"]), pick("r2", ["f/read"], ["f/list"]), pick("r3", ["f/list", "f/tree"], ["f/tree"])] },
    ]);
    expect(data.runs[0].selection?.top1).toBeCloseTo(2 / 3);
    expect(data.runs[0].selection?.confusion).toEqual([
      { area: "files", expected: "f/read", chosen: "f/read", count: 1 },
      { area: "files", expected: "f/read", chosen: "f/list", count: 1 },
      { area: "files", expected: "f/tree", chosen: "f/tree", count: 1 },
    ]);
    expect(data.runs[0].selection?.tools.find((t) => t.tool === "f/read")).toMatchObject({ precision: 1, recall: 0.5 });
  });

  it("embeds results in the page so no text in them can close its script element", () => {
    const hostile = { answer: "</script><script>alert(1)</script><!-- \u2028" };
    expect(scriptJson(hostile)).not.toMatch(/<|\u2028/);
    expect(JSON.parse(scriptJson(hostile))).toEqual(hostile);
    const page = viewerPage({ mode: "runs", base: "", data: hostile, title: "<b>x</b>" });
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page).toContain("<title>bx/b</title>");
  });
});
