import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mergeResults, orderTrials } from "../../engine/eval/results/merge-results.js";
import { renderSummaryJson, renderSummaryText } from "../../engine/eval/results/report-text.js";
import { readResults, type TrialLine } from "../../engine/eval/results/results-file.js";
import { summarize } from "../../engine/eval/results/run-summary.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { inShard } from "../../engine/eval/runner/shard.js";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";

const CRM = join(ROOT, "examples/crm/evals.yaml");
const folder = () => mkdtempSync(join(tmpdir(), "eval-simulate-merge-"));
/** The report a merge renders, as `eval-simulate report` renders it. */
const reportOf = (sources: Array<{ file: string; lines: TrialLine[] }>) => {
  const merged = mergeResults(sources);
  return renderSummaryText(summarize(merged.lines, { plannedTrials: merged.plannedTrials, notes: merged.notes }));
};
/** Durations and times are the run's own, never equal between two runs. */
const timeless = (lines: readonly TrialLine[]) => lines.map((l) => ({ ...l, durationMs: 0, startedAt: "", endedAt: "" }));

describe("merging results files into one run", () => {
  it("renders the same report from the shards' files as from the one file they were cut from, in any order", async () => {
    const dir = folder();
    const whole = await runEvals({ evals: CRM, dry: true, concurrency: 4, out: join(dir, "whole.ndjson") });
    const lines = readResults(join(dir, "whole.ndjson"));
    expect(lines).toHaveLength(8);
    const parts = [1, 2, 3].map((index) => ({ file: `shard-${index}.ndjson`, lines: inShard(lines, { index, count: 3 }) }));
    const one = reportOf([{ file: "whole.ndjson", lines }]);
    expect(reportOf(parts)).toBe(one);
    expect(reportOf([parts[2]!, parts[0]!, parts[1]!])).toBe(one);
    expect(one).toContain("PASS: 5 cases (5 passed, 0 failed)");
    expect(whole.verdict).toBe("pass");
  }, 120_000);

  it("merges shards run apart into the summary of a one-process run of the same trials", async () => {
    const dir = folder();
    const whole = await runEvals({ evals: CRM, dry: true, out: join(dir, "whole.ndjson") });
    await Promise.all([1, 2, 3].map((index) => runEvals({ evals: CRM, dry: true, shard: { index, count: 3 }, out: join(dir, `shard-${index}.ndjson`) })));
    const merged = mergeResults([1, 2, 3].map((index) => ({ file: `shard-${index}.ndjson`, lines: readResults(join(dir, `shard-${index}.ndjson`)) })));
    expect(merged).toMatchObject({ duplicates: 0, conflicts: [], missingTrials: 0, notes: [] });
    const unshard = (lines: readonly TrialLine[]) => timeless(lines).map(({ shard: _shard, session: _session, ...rest }) => rest);
    expect(unshard(merged.lines)).toEqual(unshard(orderTrials(whole.lines)));
    expect(renderSummaryJson(summarize(timeless(merged.lines)))).toBe(renderSummaryJson(summarize(orderTrials(timeless(whole.lines)))));
  }, 120_000);

  it("counts a trial found in two files once, and reports two files judging one trial differently", () => {
    const base: TrialLine = {
      case: "close-ticket",
      iteration: 0,
      model: "script",
      status: "pass",
      assertions: [],
      calls: 1,
      requests: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      costUsd: 0,
      durationMs: 5,
      startedAt: "2026-11-30T10:00:00.000Z",
      endedAt: "2026-11-30T10:00:01.000Z",
      iterations: 2,
      runTrials: 2,
    };
    const second = { ...base, iteration: 1 };
    const copy = mergeResults([
      { file: "a.ndjson", lines: [base, second] },
      { file: "b.ndjson", lines: [base, second] },
    ]);
    expect(copy).toMatchObject({ duplicates: 2, conflicts: [], missingTrials: 0, notes: [] });
    expect(copy.lines).toHaveLength(2);

    const later = { ...second, status: "fail" as const, endedAt: "2026-11-30T11:00:00.000Z" };
    const conflict = mergeResults([
      { file: "a.ndjson", lines: [base, second] },
      { file: "b.ndjson", lines: [later] },
    ]);
    expect(conflict.conflicts).toEqual([
      { trial: "close-ticket#1@script", kept: { file: "b.ndjson", status: "fail" }, dropped: [{ file: "a.ndjson", status: "pass" }] },
    ]);
    expect(conflict.lines.map((l) => l.status)).toEqual(["pass", "fail"]);
    expect(conflict.notes.join("\n")).toContain("1 trial was judged differently in different files (the later line kept): close-ticket#1@script");

    // A trial not run in one file and judged in another was rerun: the judged line counts, no conflict.
    const rerun = mergeResults([
      { file: "a.ndjson", lines: [base, { ...second, status: "not_run", endedAt: "2026-11-30T12:00:00.000Z" }] },
      { file: "b.ndjson", lines: [second] },
    ]);
    expect(rerun).toMatchObject({ conflicts: [], duplicates: 1 });
    expect(rerun.lines.map((l) => l.status)).toEqual(["pass", "pass"]);
  });

  it("makes a merge missing a shard PRELIMINARY, counting the missing shard's trials as not run", async () => {
    const dir = folder();
    const files = await Promise.all(
      [1, 2, 3].map(async (index) => {
        await runEvals({ evals: CRM, dry: true, shard: { index, count: 3 }, out: join(dir, `shard-${index}.ndjson`) });
        return { file: `shard-${index}.ndjson`, lines: readResults(join(dir, `shard-${index}.ndjson`)) };
      }),
    );
    const merged = mergeResults(files.slice(0, 2));
    const summary = summarize(merged.lines, { plannedTrials: merged.plannedTrials, notes: merged.notes });
    expect(summary.verdict).toBe("preliminary");
    expect(summary.exitCode).toBe(2);
    expect(summary.trials.total).toBe(8);
    expect(summary.trials.passed).toBe(6);
    expect(summary.trials.notRun).toBe(2);
    // A shard's file alone is not the run either.
    const alone = mergeResults([files[0]!]);
    expect(summarize(alone.lines, { plannedTrials: alone.plannedTrials }).verdict).toBe("preliminary");
    expect(alone.notes.join("\n")).toMatch(/planned trials have no line in these results/);
  }, 120_000);

  it("says so when the files come from two versions of the evals file or two different splits", () => {
    const line: TrialLine = {
      case: "a",
      iteration: 0,
      model: "script",
      status: "pass",
      assertions: [],
      calls: 0,
      requests: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      costUsd: 0,
      durationMs: 0,
      startedAt: "2026-11-30T10:00:00.000Z",
    };
    const merged = mergeResults([
      { file: "a", lines: [{ ...line, evalsSha256: "1".repeat(64), shard: "1/2" }] },
      { file: "b", lines: [{ ...line, case: "b", evalsSha256: "2".repeat(64), shard: "2/3" }] },
    ]);
    expect(merged.notes.join("\n")).toContain("2 versions of the evals file (sha256 111111111111, 222222222222): not one run");
    expect(merged.notes.join("\n")).toContain("different splits (into 2 and 3 shards)");
  });

  it("reads several files, folders and quoted globs with report and compare (real processes)", async () => {
    const dir = folder();
    await Promise.all([1, 2].map((index) => runCli(["eval", CRM, "--dry", "--shard", `${index}/2`, "--out", join(dir, "shards", `shard-${index}.ndjson`)])));
    const whole = await runCli(["eval", CRM, "--dry", "--out", join(dir, "whole.ndjson")]);
    expect(whole.code).toBe(0);
    const one = await runCli(["report", join(dir, "whole.ndjson")]);
    for (const args of [
      [join(dir, "shards", "shard-1.ndjson"), join(dir, "shards", "shard-2.ndjson")],
      [join(dir, "shards")],
      [`${dir}/shards/*.ndjson`],
      ["shards/*.ndjson"],
    ]) {
      const merged = await runCli(["report", ...args], { cwd: dir });
      expect(merged.code, args.join(" ")).toBe(0);
      expect(merged.stdout.replace(/[\d.]+s$/gm, "")).toBe(one.stdout.replace(/[\d.]+s$/gm, ""));
      expect(merged.stderr).toBe("merged 8 trials from 2 results files\n");
    }
    const half = await runCli(["report", join(dir, "shards", "shard-1.ndjson")]);
    expect(half.code).toBe(2);
    expect(half.stdout).toMatch(/4 planned trials have no line in these results/);
    const none = await runCli(["report", `${dir}/nothing-*.ndjson`]);
    expect(none).toMatchObject({ code: 2, stderr: `eval-simulate report: no results file matches ${dir}/nothing-*.ndjson\n` });
    const compared = await runCli(["compare", join(dir, "whole.ndjson"), `${dir}/shards/*.ndjson`, "--format", "json"]);
    expect(compared.code).toBe(0);
    expect(JSON.parse(compared.stdout)).toMatchObject({ baseline: { trials: 8, passes: 8 }, candidate: { trials: 8, passes: 8 }, regressed: [] });
    const missing = await runCli(["compare", join(dir, "whole.ndjson"), join(dir, "shards", "shard-2.ndjson"), "--format", "json"]);
    expect(JSON.parse(missing.stdout).proposal.decision).toBe("inconclusive");
    expect(JSON.parse(missing.stdout).candidate.notRun).toBe(4);
  }, 180_000);
});
