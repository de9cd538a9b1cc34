import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults, trialKey } from "../../engine/eval/results/results-file.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { inShard, parseShard } from "../../engine/eval/runner/shard.js";
import { runOrigin } from "../../engine/eval/runner/run-origin.js";
import { ROOT } from "../support/examples.js";
import { writeEvals } from "../support/evals-files.js";

/** A small seeded generator, so a shuffled order is the same on every run of the test. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// Cases with uneven iterations, ids in no particular order.
const TRIALS = [
  ["zeta", 5],
  ["alpha", 1],
  ["mid-case", 3],
  ["Beta", 2],
  ["é-accent", 4],
  ["alpha-2", 1],
].flatMap(([id, n]) => Array.from({ length: n as number }, (_, iteration) => ({ case: id as string, iteration })));
const keys = (trials: ReadonlyArray<{ case: string; iteration: number }>) => trials.map((t) => `${t.case}#${t.iteration}`);

describe("--shard i/n", () => {
  it("reads i/n and refuses anything else", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    expect(parseShard(" 1 / 1 ")).toEqual({ index: 1, count: 1 });
    for (const bad of ["0/3", "4/3", "1/0", "1", "a/b", "1/3/4", "-1/3", "1.5/3", ""])
      expect(() => parseShard(bad), bad).toThrow(/^\[eval-simulate\] a shard is i\/n/);
  });

  it("runs every trial in exactly one shard, the shards differing by one trial at most", () => {
    for (const count of [1, 2, 3, 4, 7, 16, 20]) {
      const shards = Array.from({ length: count }, (_, i) => keys(inShard(TRIALS, { index: i + 1, count })));
      const all = shards.flat();
      expect(new Set(all).size, `${count} shards: no trial twice`).toBe(all.length);
      expect([...all].sort(), `${count} shards: none missing`).toEqual([...keys(TRIALS)].sort());
      const sizes = shards.map((s) => s.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it("splits the same way whatever order the cases come in, on every run", () => {
    const split = (trials: typeof TRIALS) => Array.from({ length: 3 }, (_, i) => keys(inShard(trials, { index: i + 1, count: 3 })).sort());
    const reference = split(TRIALS);
    for (const seed of [1, 2, 3, 42, 2026]) expect(split(shuffled(TRIALS, seed))).toEqual(reference);
    // Pinned: a change of the split would move trials between machines of one run.
    // Ordered by code units ("B" < "a" < "é"), dealt round-robin: positions 0, 3, 6, 9, 12, 15.
    expect(reference[0]).toEqual(["Beta#0", "alpha-2#0", "mid-case#2", "zeta#2", "é-accent#0", "é-accent#3"].sort());
  });

  it("spreads a case's iterations over the shards rather than giving one shard the whole case", () => {
    const zeta = Array.from({ length: 5 }, (_, i) => keys(inShard(TRIALS, { index: i + 1, count: 5 })).filter((k) => k.startsWith("zeta#")).length);
    expect(zeta).toEqual([1, 1, 1, 1, 1]);
  });

  it("runs each shard's part of examples/crm: together every trial once, each line naming its shard, machine, commit and evals file", async () => {
    const { dir } = writeEvals("");
    const evals = join(ROOT, "examples/crm/evals.yaml");
    const whole = await runEvals({ evals, dry: true });
    const parts = await Promise.all(
      [1, 2, 3].map((index) => runEvals({ evals, dry: true, shard: { index, count: 3 }, out: join(dir, `shard-${index}.ndjson`) })),
    );
    const lines = parts.flatMap((part) => part.lines);
    expect(lines.map(trialKey).sort()).toEqual(whole.lines.map(trialKey).sort());
    expect(new Set(lines.map(trialKey)).size).toBe(8);
    expect(parts.map((p) => p.trials.total)).toEqual([3, 3, 2]);
    // A shard's own summary speaks for its trials (exit 0 here), and says how to get the run's verdict.
    expect(parts.every((p) => p.verdict === "pass")).toBe(true);
    expect(parts[0].notes.join("\n")).toContain("shard 1/3: 3 of the run's 8 trials; merge every shard's results");
    const written = readResults(join(dir, "shard-2.ndjson"));
    expect(written).toHaveLength(3);
    for (const line of written) {
      expect(line).toMatchObject({ shard: "2/3", runTrials: 8, suite: "examples/crm/evals.yaml" });
      expect(line.hostname).toEqual(expect.any(String));
      expect(line.gitSha).toMatch(/^[0-9a-f]{40}$/);
      expect(line.evalsSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(Date.parse(line.endedAt!)).toBeGreaterThanOrEqual(Date.parse(line.startedAt));
    }
  }, 120_000);

  it("names the suite by its place in the checkout, the same from any working directory", () => {
    const fromRoot = runOrigin("examples/crm/evals.yaml", ROOT);
    const fromElsewhere = runOrigin(join(ROOT, "examples/crm/evals.yaml"), "/");
    expect(fromRoot.suite).toBe("examples/crm/evals.yaml");
    expect(fromElsewhere).toEqual(fromRoot);
    // Outside a checkout: relative to the working directory.
    const { file, dir } = writeEvals("");
    expect(runOrigin(file, dir)).toMatchObject({ suite: "evals.yaml" });
    expect(runOrigin(file, dir).gitSha).toBeUndefined();
  });
});
