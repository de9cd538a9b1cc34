/**
 * Trials per second beyond one event loop: the crm dry run (its five cases, each iteration count
 * scaled, the script host) in one process and in 1, 2 and 4 worker processes; and a model run
 * against the scripted provider answering each request after 200 ms (the shape of a real model:
 * time spent waiting, not computing) at concurrency 4, 16 and 64, in one process and in two
 * workers. Medians of BENCH_ROUNDS rounds. The model runs are `eval` processes (the provider
 * packages do not load under this script's TypeScript loader), timed from their first trial's
 * start to their last trial's end, so a process's start-up is left out.
 *
 *   npm run build && node --import jiti/register bench/workers.ts
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { runEvals } from "../dist/engine/entries/runner.js";
import { startScriptedProvider } from "../test/support/scripted-provider.js";
import { median } from "./support/load.js";
import { ROOT, table } from "./support/processes.js";

const SCALE = Number(process.env.BENCH_CALLS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODEL_TRIALS = Number(process.env.BENCH_TRIALS ?? 128);
const dir = mkdtempSync(join(tmpdir(), "bench-workers-"));

// The crm example's cases, each run SCALE times as many iterations.
const crm = parse(readFileSync(join(ROOT, "examples/crm/evals.yaml"), "utf8")) as {
  fakes: string;
  cases: Array<{ iterations?: number; accuracyThreshold?: number }>;
};
crm.fakes = join(ROOT, "examples/crm", crm.fakes);
for (const c of crm.cases) {
  c.iterations = (c.iterations ?? 1) * SCALE;
  c.accuracyThreshold ??= 1;
}
const dry = join(dir, "crm.evals.yaml");
writeFileSync(dry, stringify(crm));
const dryTrials = crm.cases.reduce((n, c) => n + c.iterations!, 0);

const rate = (trials: number, ms: number) => (trials / (ms / 1000)).toFixed(1);
/** The span from a run's first trial's start to its last trial's end (start-up left out). */
const span = (lines: ReadonlyArray<{ startedAt: string; endedAt?: string }>) =>
  Math.max(...lines.map((l) => Date.parse(l.endedAt!))) - Math.min(...lines.map((l) => Date.parse(l.startedAt)));
async function timed(options: Parameters<typeof runEvals>[0]): Promise<{ ms: number; trialsMs: number; passed: number; total: number }> {
  const started = performance.now();
  // The evals file is written to a temporary folder; its fakes are the crm example's, outside it.
  const result = await runEvals({ allowOutside: true, ...options });
  return { ms: performance.now() - started, trialsMs: span(result.lines), passed: result.trials.passed, total: result.trials.total };
}

await runEvals({ evals: dry, dry: true, limit: 1, allowOutside: true });
const dryRows = [["how", "concurrency", "trials", "trials / s (wall)", "trials / s (first start to last end)", "passed"]];
for (const workers of [undefined, 1, 2, 4]) {
  const concurrency = 4 * (workers ?? 1);
  const runs: number[] = [];
  const steady: number[] = [];
  let passed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const run = await timed({ evals: dry, dry: true, concurrency, ...(workers ? { workers } : {}) });
    runs.push(run.ms);
    steady.push(run.trialsMs);
    passed = run.passed;
  }
  dryRows.push([
    workers ? `${workers} worker${workers === 1 ? "" : "s"}` : "one process",
    String(concurrency),
    String(dryTrials),
    rate(dryTrials, median(runs)),
    rate(dryTrials, median(steady)),
    `${passed}/${dryTrials}`,
  ]);
}
console.log(`Workers: the crm dry run (${dryTrials} trials, the script host; ${ROUNDS} rounds, medians; ${cpus().length} cores)`);
console.log(table(dryRows));

// A model run: each trial a tool call and an answer, each request answered after 200 ms, by a
// provider of its own (so its most requests at once are this run's).
const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const createNote = { name: "create-note", arguments: { parent_object: "companies", parent_record_id: UMBRELLA, title: "Kick-off", content: "Booked." } };

/** One `eval` process of the model case; its trials' span from the results file. */
async function modelRun(concurrency: number, workers?: number): Promise<{ ms: number; passed: number; total: number; most: number }> {
  const provider = await startScriptedProvider((request) => (request.toolResults.length === 0 ? { toolCalls: [createNote] } : { text: "Kick-off noted." }), {
    delayMs: 200,
  });
  const tag = `${concurrency}-${workers ?? 0}`;
  const model = join(dir, `model-${tag}.evals.yaml`);
  writeFileSync(
    model,
    stringify({
      version: 1,
      fakes: join(ROOT, "examples/crm/fakes.yaml"),
      cases: [
        {
          id: "note-on-umbrella",
          scenario: "quiet",
          clock: "2026-10-01T09:00:00.000Z",
          prompt: "Log a kick-off note on Umbrella Health.",
          iterations: MODEL_TRIALS,
          accuracyThreshold: 1,
          maxSteps: 4,
          host: { type: "model", model: "openai-compatible:bench", baseURL: provider.baseURL },
          expect: { calls: [{ tool: "crm/create-note" }] },
        },
      ],
    }),
  );
  const out = join(dir, `model-${tag}.ndjson`);
  const args = [
    join(ROOT, "dist/cli/main.js"),
    "eval",
    model,
    "--concurrency",
    String(concurrency),
    "--allow-outside",
    "--out",
    out,
    ...(workers ? ["--workers", String(workers)] : []),
  ];
  try {
    // Not a synchronous call: the provider answering it lives in this process.
    await promisify(execFile)(process.execPath, args, { cwd: ROOT }).catch((error: { code?: number }) => {
      if (error.code !== 1 && error.code !== 2) throw error;
    });
  } finally {
    await provider.close();
  }
  const lines = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((text) => JSON.parse(text) as { status: string; startedAt: string; endedAt: string });
  if (provider.requests.length !== lines.length * 2) throw new Error(`[bench] ${provider.requests.length} requests for ${lines.length} trials`);
  return { ms: span(lines), passed: lines.filter((l) => l.status === "pass").length, total: lines.length, most: provider.maxInFlight };
}

const modelRows = [["concurrency", "how", "trials", "trials / s", "ideal trials / s", "passed", "most requests at once"]];
for (const concurrency of [4, 16, 64]) {
  for (const workers of [undefined, 2]) {
    const run = await modelRun(concurrency, workers);
    modelRows.push([
      String(concurrency),
      workers ? `${workers} workers` : "one process",
      String(run.total),
      rate(run.total, run.ms),
      (concurrency / 0.4).toFixed(1),
      `${run.passed}/${run.total}`,
      String(run.most),
    ]);
  }
}
console.log(
  `\nWorkers: a model run against a provider answering each request after 200 ms (${MODEL_TRIALS} trials of 2 requests; ideal = concurrency / 0.4 s)`,
);
console.log(table(modelRows));
