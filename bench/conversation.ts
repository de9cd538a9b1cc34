/**
 * The conversation loop's own cost per turn, with the script host and the scripted user so no
 * model is in the way. Three cases run side by side in one process, each trial judged:
 *   - one turn making TURNS read calls (the single-turn baseline),
 *   - a conversation of TURNS turns making one read call each (the same calls, spread out),
 *   - a conversation of TURNS turns making no call (the loop alone: messages, transcript, judge).
 * The cost per turn beyond the calls is (conversation − baseline) / TURNS; the second line says
 * what of it is the loop alone, without any call.
 *
 *   npm run build && node --import jiti/register bench/conversation.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runEvals } from "../dist/engine/entries/runner.js";
import { median } from "./support/load.js";
import { ROOT, table } from "./support/processes.js";

const TRIALS = Number(process.env.BENCH_CALLS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const CLOCK = "2026-10-01T09:00:00.000Z";
const dir = mkdtempSync(join(tmpdir(), "bench-conversation-"));
const call = "{ tool: crm/list-tasks, arguments: { is_completed: false } }";
const turns = (withCall: boolean) =>
  Array.from(
    { length: TURNS },
    (_, i) => `      - { ${i > 0 ? `user: "and then? (${i + 1})", ` : ""}calls: [${withCall ? call : ""}], answer: "turn ${i + 1}" }`,
  ).join("\n");
const head = (id: string) => `  - id: ${id}
    scenario: quiet
    clock: "${CLOCK}"
    prompt: What is open?
    iterations: ${TRIALS}
    accuracyThreshold: 1
    host: { type: script }`;
const evals = join(dir, "evals.yaml");
writeFileSync(
  evals,
  `version: 1
fakes: ${JSON.stringify(join(ROOT, "examples/crm/fakes.yaml"))}
cases:
${head("one-turn")}
    script:
      calls: [${Array.from({ length: TURNS }, () => call).join(", ")}]
      answer: turn ${TURNS}
    expect: { callCount: { exact: ${TURNS} }, state: { readOnly: true } }
${head("turns-with-calls")}
    turns:
${turns(true)}
    expect: { callCount: { exact: ${TURNS} }, state: { readOnly: true }, turns: { exact: ${TURNS} } }
${head("turns-without-calls")}
    turns:
${turns(false)}
    expect: { callCount: { exact: 0 }, state: { readOnly: true }, turns: { exact: ${TURNS} } }
${head("no-call")}
    script: { calls: [], answer: done }
    expect: { callCount: { exact: 0 }, state: { readOnly: true } }
`,
);

await runEvals({ evals, dry: true, limit: 3, allowOutside: true });
const ids = ["one-turn", "turns-with-calls", "turns-without-calls", "no-call"];
const wall: Record<string, number[]> = Object.fromEntries(ids.map((id) => [id, []]));
const cpu: Record<string, number[]> = Object.fromEntries(ids.map((id) => [id, []]));
let failed = 0;
for (let round = 0; round < ROUNDS; round++) {
  // Interleaved, so a change in the machine's load falls on every case alike.
  for (const id of ids) {
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const result = await runEvals({ evals, dry: true, allowOutside: true, concurrency: 1, cases: [id] });
    wall[id].push((performance.now() - started) / TRIALS);
    const used = process.cpuUsage(cpuStart);
    cpu[id].push((used.user + used.system) / 1000 / TRIALS);
    failed += result.trials.total - result.trials.passed;
  }
}
const m = (xs: Record<string, number[]>, id: string) => median(xs[id]);
const rows = [["case", "wall ms / trial", "CPU ms / trial", "× one turn (CPU)"]];
for (const id of ids) rows.push([id, m(wall, id).toFixed(2), m(cpu, id).toFixed(2), (m(cpu, id) / m(cpu, "one-turn")).toFixed(2)]);
console.log(
  `Conversations: the loop's cost per turn with the script host and scripted user (examples/crm, ${TURNS} turns, ${ROUNDS} rounds × ${TRIALS} trials a case, concurrency 1, medians; ${failed} failed)`,
);
console.log(table(rows));
const perTurn = (xs: Record<string, number[]>) => (m(xs, "turns-with-calls") - m(xs, "one-turn")) / TURNS;
const loop = (xs: Record<string, number[]>) => (m(xs, "turns-without-calls") - m(xs, "no-call")) / TURNS;
console.log(
  `runner's own cost per turn beyond the calls (same calls, ${TURNS} turns against one): ${perTurn(wall).toFixed(2)} ms wall, ${perTurn(cpu).toFixed(2)} ms CPU (target < 5 ms)`,
);
console.log(`of it, the loop alone (turns without calls against a trial without calls): ${loop(wall).toFixed(2)} ms wall, ${loop(cpu).toFixed(2)} ms CPU`);
rmSync(dir, { recursive: true, force: true });
