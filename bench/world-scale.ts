/**
 * A trial's cost against the size of its world, side by side in one run (script host, no model):
 * - the scale trial: one TypeScript write, one JSONata read and three more calls, judged with
 *   golden on the same calls, `state.only` and the starting world's hash, on a world of 100,000
 *   order records against the same trial on 10 (target: within 1.5×);
 * - the ported benchmark's shape: ~1,000 orders, ~1,000 customers and products keyed by id
 *   (about 3 MB of JSON), tasks of five calls each, golden on every case (target ≤ 40 ms a
 *   trial, start-up excluded), against the same tasks on a 10-record world.
 * Each configuration runs a warm-up (loading, compiling, the first world) then ROUNDS measured
 * runs at concurrency 1; a trial's cost is its line's own duration (session, calls, judge: the
 * run's start-up excluded), the run's wall and CPU time over its trials shown beside it, and
 * its CPU time past start-up: each round also runs one trial alone, and (CPU of the run − CPU
 * of the one-trial run) / (trials − 1) is what one more trial costs. On a shared machine that
 * column and the ratios from it are the ones to read: waits for a core inflate the wall times.
 * BENCH_ROUNDS, BENCH_TASKS, BENCH_SCALE_TASKS (40: 200 trials a scale row), BENCH_ONLY (a label's part).
 *
 *   npm run build && node --import jiti/register bench/world-scale.ts
 *   node --cpu-prof --cpu-prof-dir=bench/.generated/prof --import jiti/register bench/world-scale.ts
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { runEvals } from "../dist/engine/entries/runner.js";
import { median } from "./support/load.js";
import { ROOT, table } from "./support/processes.js";
import { writeScaledRecipe } from "./support/scaled-recipe.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TASKS = Number(process.env.BENCH_TASKS ?? 40);
const ONLY = process.env.BENCH_ONLY;
const root = join(ROOT, "bench", ".generated", "world-scale");

interface Config {
  label: string;
  orders: number;
  customers?: number;
  lean?: boolean;
  tasks: number;
  iterations: number;
}

// The scale rows run 200 trials a round each: the run of one trial subtracted from a round's CPU
// (to leave start-up out) varies by a few hundred ms on a 100,000-record world, spread over the trials.
const SCALE_TASKS = Number(process.env.BENCH_SCALE_TASKS ?? 40);
const configs: Config[] = [
  { label: "scale: 10 records", orders: 10, customers: 10, lean: true, tasks: SCALE_TASKS, iterations: 5 },
  { label: "scale: 100,000 records", orders: 100_000, customers: 10, lean: true, tasks: SCALE_TASKS, iterations: 5 },
  { label: "benchmark shape: 10 records", orders: 10, tasks: TASKS, iterations: 1 },
  { label: "benchmark shape: ~3 MB", orders: 1_000, tasks: TASKS, iterations: 1 },
];

const rows = [["world", "JSON bytes", "trials", "run wall ms / trial", "run CPU ms / trial", "trial CPU ms", "trial p50 ms", "passed"]];
const perTrial: Record<string, number> = {};
const p50: Record<string, number> = {};

/** The CPU milliseconds of one run of the evals. */
async function cpuOf(run: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
for (const config of configs) {
  if (ONLY && !config.label.includes(ONLY)) continue;
  const dir = join(root, config.label.replace(/[^a-z0-9]+/gi, "-"));
  const recipe = writeScaledRecipe(dir, config);
  const trials = config.tasks * config.iterations;
  // The warm-up loads the fakes, compiles the handlers and builds the world, as a run's start-up does.
  await runEvals({ evals: recipe.evals, dry: true, limit: 1, out: join(dir, "warm.ndjson") });
  const wall: number[] = [];
  const cpu: number[] = [];
  const trial: number[] = [];
  const marginal: number[] = [];
  let passed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const out = join(dir, `results-${round}.ndjson`);
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    const result = await runEvals({ evals: recipe.evals, dry: true, out, concurrency: 1 });
    wall.push((performance.now() - started) / trials);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000 / trials);
    trial.push(...result.lines.map((line) => line.durationMs));
    passed += result.trials.passed;
    const one = await cpuOf(() => runEvals({ evals: recipe.evals, dry: true, limit: 1, out: join(dir, `one-${round}.ndjson`), concurrency: 1 }));
    marginal.push(((used.user + used.system) / 1000 - one) / (trials - 1));
  }
  perTrial[config.label] = median(marginal);
  p50[config.label] = median(trial);
  rows.push([
    config.label,
    String(recipe.bytes),
    String(trials * ROUNDS),
    median(wall).toFixed(2),
    median(cpu).toFixed(2),
    median(marginal).toFixed(2),
    median(trial).toFixed(2),
    String(passed),
  ]);
}
console.log(`World scale: a trial's cost against its world's size (script host, every trial judged with golden; ${ROUNDS} rounds, medians)`);
console.log(table(rows));
const ratio = (of: Record<string, number>, a: string, b: string) => (of[a] && of[b] ? (of[a] / of[b]).toFixed(2) : "n/a");
const both = (a: string, b: string) => `${ratio(perTrial, a, b)}× by trial CPU, ${ratio(p50, a, b)}× by trial p50`;
console.log(`scale trial, 100,000 records / 10 records: ${both("scale: 100,000 records", "scale: 10 records")} (target ≤ 1.5×)`);
console.log(
  `benchmark shape, ~3 MB / 10 records: ${both("benchmark shape: ~3 MB", "benchmark shape: 10 records")}; ${perTrial["benchmark shape: ~3 MB"]?.toFixed(1) ?? "n/a"} ms CPU, ${p50["benchmark shape: ~3 MB"]?.toFixed(1) ?? "n/a"} ms p50 a trial (target ≤ 40 ms)`,
);
if (!process.env.BENCH_KEEP) rmSync(root, { recursive: true, force: true });
