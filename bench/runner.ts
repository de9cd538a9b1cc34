/**
 * The eval runner's own cost per trial, with the script host so no model is in the way: a
 * session created from the case's scenario and clock, the MCP client connected to it, one read
 * call, the session closed, the judge (calls, order, exclusive, callCount, readOnly, answer,
 * the starting world's hash), the trial's line appended to a results file. Reported per trial
 * (its own measured duration) and as wall time per trial at concurrency 1 and 4; the call alone
 * (an already-connected client) is measured beside it, so the runner's share can be read off.
 *
 *   npm run build && node --import jiti/register bench/runner.ts
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { loadFakes, startServices } from "../dist/engine/index.js";
import { runEvals } from "../dist/engine/entries/runner.js";
import { median, quantile } from "./support/load.js";
import { ROOT, table } from "./support/processes.js";

const TRIALS = Number(process.env.BENCH_CALLS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CLOCK = "2026-10-01T09:00:00.000Z";
const dir = mkdtempSync(join(tmpdir(), "bench-runner-"));
const evals = join(dir, "evals.yaml");
writeFileSync(
  evals,
  `version: 1
fakes: ${JSON.stringify(join(ROOT, "examples/crm/fakes.yaml"))}
cases:
  - id: open-tasks
    scenario: quiet
    clock: "${CLOCK}"
    iterations: ${TRIALS}
    accuracyThreshold: 1
    host: { type: script }
    script:
      calls: [{ tool: crm/list-tasks, arguments: { is_completed: false } }]
      answer: One open task, the Acme order form.
    expect:
      calls: [{ tool: crm/list-tasks, count: { exact: 1 } }]
      exclusive: true
      order: strict
      callCount: { exact: 1 }
      state: { readOnly: true }
      answer: { contains: order form }
`,
);

// The call alone, on a client already connected: what any agent's call costs, runner or not.
// CPU time (client and host share this process) is read beside wall time: on a shared, loaded
// machine wall time mostly measures the wait for a core.
const { fakes, world } = await loadFakes(join(ROOT, "examples/crm/fakes.yaml"), { clock: CLOCK });
const services = await startServices(fakes, { world, clock: CLOCK });
const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(services.url("crm"))));
const callMs: number[] = [];
const callCpu = process.cpuUsage();
for (let i = 0; i < TRIALS * ROUNDS; i++) {
  const started = performance.now();
  await client.callTool({ name: "list-tasks", arguments: { is_completed: false } });
  callMs.push(performance.now() - started);
}
const callUsed = process.cpuUsage(callCpu);
const callCpuMs = (callUsed.user + callUsed.system) / 1000 / (TRIALS * ROUNDS);
await client.close();
await services.close();

// A warm-up run compiles the fakes and the judge's world once, as any real run's first trial does.
await runEvals({ evals, dry: true, limit: 1, allowOutside: true });
const rows = [["concurrency", "trials", "wall ms / trial", "CPU ms / trial", "trial p50 ms", "trial p90 ms", "passed"]];
const summary: Record<number, number> = {};
const cpuSummary: Record<number, number> = {};
for (const concurrency of [1, 4]) {
  const wall: number[] = [];
  const trial: number[] = [];
  const cpu: number[] = [];
  let passed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const result = await runEvals({ evals, dry: true, allowOutside: true, concurrency, out: join(dir, `results-${concurrency}-${round}.ndjson`) });
    wall.push((performance.now() - started) / TRIALS);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000 / TRIALS);
    trial.push(...result.lines.map((line) => line.durationMs));
    passed += result.trials.passed;
  }
  summary[concurrency] = median(wall);
  cpuSummary[concurrency] = median(cpu);
  rows.push([
    String(concurrency),
    String(TRIALS * ROUNDS),
    median(wall).toFixed(2),
    median(cpu).toFixed(2),
    median(trial).toFixed(2),
    quantile(trial, 0.9).toFixed(2),
    String(passed),
  ]);
}
console.log(`Runner: cost per trial with the script host (examples/crm, one read call, every trial judged; ${ROUNDS} rounds × ${TRIALS} trials, medians)`);
console.log(table(rows));
console.log(`the call alone (a connected client): p50 ${median(callMs).toFixed(2)} ms wall, ${callCpuMs.toFixed(2)} ms CPU`);
console.log(
  `runner's own cost per trial at concurrency 1 (the trial less its one call): ${(summary[1] - median(callMs)).toFixed(2)} ms wall, ${(cpuSummary[1] - callCpuMs).toFixed(2)} ms CPU (target < 20 ms)`,
);
