/**
 * The judge's cost: a 1,000-call run of the CRM example (reads, writes, a change undone),
 * recorded by a real `serve --run-dir`, judged against a case that uses every assertion kind
 * (calls with `$pattern` and counts, strict order, exclusive, callCount, changed, unchanged,
 * only, readOnly, diff, assert, milestones, never, golden, answer). Reports the median and p90
 * of reading the run folder and of judging it.
 *
 *   npm run build && node --import jiti/register bench/judge.ts
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { judgeRun, loadEvals, readRun } from "../dist/engine/entries/judge.js";
import { labelId } from "../dist/engine/author/world/index.js";
import { median, post, quantile, toolsCall } from "./support/load.js";
import { ROOT, startSubject, table } from "./support/processes.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const CLOCK = "2026-10-01T09:00:00.000Z";
const deal = labelId("deal-acme");
const task = labelId("task-acme-order-form");
const acme = labelId("company-acme");

const dir = mkdtempSync(join(tmpdir(), "bench-judge-"));
const subject = await startSubject("serve", [
  join(ROOT, "dist/cli/main.js"),
  "serve",
  join(ROOT, "examples/crm/fakes.yaml"),
  "--port",
  "0",
  "--host",
  "127.0.0.1",
  "--run-dir",
  dir,
  "--clock",
  CLOCK,
]);
const call = (name: string, args: Record<string, unknown>, id: number) => {
  const { body, headers } = toolsCall(name, args, id);
  return post(`http://127.0.0.1:${subject.port}/crm/mcp`, body, headers);
};
try {
  for (let i = 0; i < CALLS; i++) {
    if (i === Math.floor(CALLS / 2)) await call("update-record", { object: "companies", record_id: acme, values: { industry: "retail" } }, i);
    else if (i === Math.floor(CALLS / 2) + 1) await call("update-record", { object: "companies", record_id: acme, values: { industry: "manufacturing" } }, i);
    else if (i === CALLS - 2) await call("update-record", { object: "deals", record_id: deal, values: { stage: "won" } }, i);
    else if (i === CALLS - 1) await call("complete-task", { task_id: task }, i);
    else if (i % 4 === 3) await call("create-note", { parent_object: "deals", parent_record_id: deal, title: `Call ${i}`, content: `Notes of call ${i}.` }, i);
    else if (i % 4 === 1) await call("update-record", { object: "deals", record_id: deal, values: { value: 48000 + (i % 8) * 100 } }, i);
    else await call("search-records", { object: "deals", query: "Acme" }, i);
  }
} finally {
  await subject.stop();
}
writeFileSync(join(dir, "answer.txt"), "The Acme renewal is won and the task is closed.");

const evals = join(dir, "evals.yaml");
writeFileSync(
  evals,
  `version: 1
fakes: ${JSON.stringify(join(ROOT, "examples/crm/fakes.yaml"))}
cases:
  - id: every-kind
    scenario: quiet
    clock: "${CLOCK}"
    expect:
      calls:
        - { tool: search-records, arguments: { object: deals, query: { $pattern: "^acme$", $flags: i } }, count: { min: 1 } }
        - { tool: create-note, arguments: { title: { $pattern: "^Call \\\\d+$" } }, count: { min: 100 } }
        - { tool: update-record, arguments: { values: { stage: won } }, count: { exact: 1 } }
        - { tool: complete-task }
      order: strict
      exclusive: true
      callCount: { min: ${CALLS}, max: ${CALLS} }
      state:
        changed: [crm.deals, crm.tasks, crm.notes]
        unchanged: [crm.companies, crm.people]
        only: true
        readOnly: false
        diff:
          crm.deals: { updated: [{ id: "${deal}", stage: won }], added: [], removed: [] }
        assert:
          - { name: one deal changed, jsonata: "$count($diff.crm.deals.updated) = 1" }
          - { name: every note has a title, jsonata: "$count($final.crm.notes[title = '']) = 0" }
      milestones:
        - { name: first note, jsonata: "$count($world.crm.notes) > $count($initial.crm.notes)" }
        - { name: deal won, jsonata: "$world.crm.deals[id = '${deal}'].stage = 'won'" }
        - { name: task done, jsonata: "$world.crm.tasks[id = '${task}'].is_completed = true" }
      never:
        - { name: Acme stays in manufacturing, jsonata: "$world.crm.companies[id = '${acme}'].industry != 'manufacturing'" }
        - { name: no deal is lost, jsonata: "'lost' in $world.crm.deals.stage" }
      golden:
        calls:
          - { tool: crm/update-record, arguments: { object: deals, record_id: "${deal}", values: { stage: won } } }
          - { tool: crm/complete-task, arguments: { task_id: "${task}" } }
        entities: [crm.tasks, crm.companies]
      answer: { contains: won, pattern: "closed", jsonata: "$contains($answer, 'Acme')" }
`,
);
// The evals file is written to a temporary folder beside no fakes: it names the example's.
const { evals: document, fakes } = await loadEvals(evals, { allowOutside: true });
const chosen = document.cases![0];
const reads: number[] = [];
const judged: number[] = [];
let verdict: Awaited<ReturnType<typeof judgeRun>> | undefined;
for (let i = 0; i < RUNS + 1; i++) {
  const t0 = performance.now();
  const run = readRun(dir);
  const t1 = performance.now();
  verdict = await judgeRun({ fakes, case: chosen, run });
  const t2 = performance.now();
  if (i === 0) continue; // warm-up
  reads.push(t1 - t0);
  judged.push(t2 - t1);
}
const kinds = [...new Set(verdict!.results.map((r) => r.kind))];
console.log(`Judging a ${CALLS.toLocaleString("en")}-call run (crm example, ${verdict!.results.length} assertions of ${kinds.length} kinds), ${RUNS} runs`);
console.log(
  table([
    ["step", "median ms", "p90 ms"],
    ["readRun (run folder)", median(reads).toFixed(1), quantile(reads, 0.9).toFixed(1)],
    ["judgeRun (every kind)", median(judged).toFixed(1), quantile(judged, 0.9).toFixed(1)],
  ]),
);
const failing = verdict!.results.filter((r) => r.status !== "passed").map((r) => `${r.assertion}: ${r.message}`);
console.log(`verdict: ${verdict!.verdict}${failing.length ? `\n  ${failing.join("\n  ")}` : ""}`);
