/**
 * Resuming a large run: a results file of N stored trials (every one judged, so nothing is run
 * again) read back by `runEvals`, which matches each planned trial to its stored line by trial
 * key and case hash, then summarizes the run. Measured at 20,000 and 100,000 trials in one run:
 * the ratio of their times shows the cost grows with the trials (linear: about 5×), not with
 * their square (BENCH_CASES cases, 10 by default, share the trials). CPU time is read beside wall time: on a shared, loaded machine wall time mostly
 * measures the wait for a core.
 *
 *   npm run build && node --import jiti/register bench/resume.ts
 */
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, table } from "./support/processes.js";

// BENCH_BASELINE=<another checkout's dist/> runs the same files on that build beside this one.
const builds = [
  { name: "this build", dist: join(ROOT, "dist") },
  ...(process.env.BENCH_BASELINE ? [{ name: "baseline", dist: process.env.BENCH_BASELINE }] : []),
];
const load = async (dist: string, path: string) => import(pathToFileURL(join(dist, path)).href);
const { loadEvals } = await load(builds[0].dist, "engine/entries/judge.js");
const { caseHashes } = await load(builds[0].dist, "engine/eval/runner/case-hash.js");

const SIZES = (process.env.BENCH_TRIALS ?? "20000,100000").split(",").map(Number);
const CASES = Number(process.env.BENCH_CASES ?? 10);
const dir = mkdtempSync(join(tmpdir(), "bench-resume-"));

/** An evals file of CASES cases sharing the trials out, and a results file holding all of them, judged. */
async function storedRun(trials: number): Promise<{ evals: string; out: string }> {
  const evals = join(dir, `evals-${trials}.yaml`);
  const cases = Array.from(
    { length: CASES },
    (_, i) => `  - id: case-${i}
    iterations: ${trials / CASES}
    accuracyThreshold: 1
    host: { type: script }
    script: { calls: [{ tool: crm/list-tasks, arguments: { is_completed: false } }], answer: One open task. }
    expect: { calls: [{ tool: crm/list-tasks }], state: { readOnly: true } }
`,
  );
  writeFileSync(evals, `version: 1\nfakes: ${JSON.stringify(join(ROOT, "examples/crm/fakes.yaml"))}\ncases:\n${cases.join("")}`);
  const loaded = await loadEvals(evals, { allowOutside: true });
  const hashes = await caseHashes(loaded.evals.cases!, loaded.fakes);
  const out = join(dir, `results-${trials}.ndjson`);
  const file = createWriteStream(out);
  for (const c of loaded.evals.cases!) {
    for (let iteration = 0; iteration < c.iterations!; iteration++) {
      const line = {
        case: c.id,
        iteration,
        model: "script",
        status: "pass",
        assertions: [{ assertion: "calls[0] crm/list-tasks", kind: "calls", passed: true, status: "passed", message: "1 matching call (#1)" }],
        calls: 1,
        requests: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        durationMs: 12,
        iterations: c.iterations,
        accuracyThreshold: 1,
        startedAt: "2026-12-01T00:00:00.000Z",
        caseHash: hashes.get(c),
      };
      if (!file.write(`${JSON.stringify(line)}\n`)) await once(file, "drain");
    }
  }
  file.end();
  await once(file, "finish");
  return { evals, out };
}

const rows: string[][] = [];
const times: number[] = [];
for (const trials of SIZES) {
  const { evals, out } = await storedRun(trials);
  for (const build of builds) {
    const { runEvals } = await load(build.dist, "engine/entries/runner.js");
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await runEvals({ evals, out, allowOutside: true });
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    if (result.trials.passed !== trials) throw new Error(`expected ${trials} resumed passes, got ${result.trials.passed}`);
    times.push(cpuMs);
    rows.push([
      build.name,
      String(trials),
      `${(ms / 1000).toFixed(2)} s`,
      `${(cpuMs / 1000).toFixed(2)} s`,
      `${((cpuMs * 1000) / trials).toFixed(1)} µs`,
      `${(cpuMs / times[0]).toFixed(1)}×`,
    ]);
  }
}
if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
else console.log(dir);
console.log(table([["build", "stored trials", "resume: wall", "CPU", "CPU per trial", "CPU vs the first"], ...rows]));
