/**
 * What `--state-file` costs a write: the same write (a counter bumped by a JSONata handler) on a
 * fake whose `items` entity holds 10 records and one holding 100,000, each served with and without
 * a state file, side by side in interleaved rounds, each server in its own process, loopback only.
 * With a state file each commit appends one line to `state.json.log` before it is answered; the
 * whole world is written in the background now and then (every 10 s, or once the log outgrows the
 * snapshot), and those snapshots fall inside the measured rounds. Then, in this process, what the
 * state file adds to one commit of the large world, and what a background snapshot of it costs:
 * its time, and the longest the event loop went unanswered meanwhile.
 *
 *   npm run build && node --import jiti/register bench/state-file.ts
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DurableStateFile } from "../dist/engine/serve/host/durable-state.js";
import { commitPatches } from "../dist/engine/serve/host/record-changes.js";
import { StateStore } from "../dist/engine/serve/runtime/state-store.js";
import { writeFiftyToolFakes } from "./support/fifty-tools.js";
import { drive, median, post, quantile, type RunResult, toolsCall } from "./support/load.js";
import { ROOT, type Subject, startSubject, table } from "./support/processes.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LARGE = Number(process.env.BENCH_ITEMS ?? 100_000);

const generated = join(ROOT, "bench", ".generated");
const states = join(generated, "state-file-runs");
rmSync(states, { recursive: true, force: true });
mkdirSync(states, { recursive: true });
const sizes = [
  { label: "10 records", fakes: writeFiftyToolFakes(join(generated, "state-10"), 10).jsonata },
  { label: `${LARGE.toLocaleString("en")} records`, fakes: writeFiftyToolFakes(join(generated, `state-${LARGE}`), LARGE).jsonata },
];
const serve = (file: string, stateFile?: string) => [
  join(ROOT, "dist/cli/main.js"),
  "serve",
  file,
  "--port",
  "0",
  "--host",
  "127.0.0.1",
  ...(stateFile ? ["--state-file", stateFile] : []),
];
const subjects: Array<Subject & { size: string; durable: boolean }> = [];
for (const [i, size] of sizes.entries()) {
  for (const durable of [false, true]) {
    const args = serve(size.fakes, durable ? join(states, `${i}`, "state.json") : undefined);
    subjects.push({ ...(await startSubject(`${size.label}${durable ? ", --state-file" : ""}`, args)), size: size.label, durable });
  }
}
const write = toolsCall("bump", {});
const results = new Map<string, RunResult[]>(subjects.map((s) => [s.label, []]));
try {
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (let i = 0; i < subjects.length; i++) {
      const s = subjects[(i + round) % subjects.length];
      const run = await drive(() => post(`http://127.0.0.1:${s.port}/bench/mcp`, write.body, write.headers), CALLS, 1);
      if (round > 0) results.get(s.label)!.push(run); // round 0 warms up
    }
  }
} finally {
  await Promise.all(subjects.map((s) => s.stop()));
  rmSync(states, { recursive: true, force: true });
}
const rows = subjects.map((s) => {
  const runs = results.get(s.label)!;
  return {
    ...s,
    perSecond: median(runs.map((x) => x.callsPerSecond)),
    p50: quantile(
      runs.flatMap((x) => x.latenciesMs),
      0.5,
    ),
    p99: quantile(
      runs.flatMap((x) => x.latenciesMs),
      0.99,
    ),
  };
});
console.log(`A write with and without --state-file (JSONata handler, sequential, ${ROUNDS} rounds × ${CALLS} calls)`);
console.log(
  table([
    ["world", "state file", "write calls/s", "p50 ms", "p99 ms", "with / without"],
    ...rows.map((r) => {
      const without = rows.find((x) => x.size === r.size && !x.durable)!;
      return [
        r.size,
        r.durable ? "yes" : "no",
        r.perSecond.toFixed(0),
        r.p50.toFixed(2),
        r.p99.toFixed(2),
        r.durable ? `${(r.perSecond / without.perSecond).toFixed(2)}×` : "",
      ];
    }),
  ]),
);

// In-process: a commit of the large world with and without its line appended, and a background snapshot.
const items = Array.from({ length: LARGE }, (_, i) => ({ id: `item-${i}`, name: `Item ${i}`, price: i, tags: ["a", "b"] }));
const world = { bench: { items, counter: 0 } };
const store = new StateStore(world, structuredClone(world), false);
const durable = new DurableStateFile(join(states, "in-process", "state.json"), () => store.states, {
  warn: console.warn,
  snapshotMs: 1e9,
  snapshotLogBytes: 1e12,
});
durable.start();
const COMMITS = CALLS * 10;
const commitMicros = (label: string) => {
  const started = performance.now();
  for (let i = 0; i < COMMITS; i++) store.commit("bench", { counter: i + 1 });
  return [label, (((performance.now() - started) * 1000) / COMMITS).toFixed(1)];
};
const plain = commitMicros("commit");
const unsubscribe = store.onCommit((fake, commit) => durable.append(fake, commitPatches(commit)));
const logged = commitMicros("commit + its line appended");
unsubscribe();
store.commit("bench", { counter: -1 });
durable.append("bench", { counter: [{ op: "replace", path: "", value: -1 }] });
let longest = 0;
let last = performance.now();
const ticker = setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last);
  last = now;
}, 1);
const started = performance.now();
await durable.snapshot();
const snapshotMs = performance.now() - started;
clearInterval(ticker);
durable.close();
rmSync(states, { recursive: true, force: true });
console.log(`\nIn process, ${LARGE.toLocaleString("en")} records (${COMMITS} commits each way)`);
console.log(table([["step", "µs"], plain, logged]));
console.log(`background snapshot: ${snapshotMs.toFixed(0)} ms, the event loop's longest wait meanwhile ${longest.toFixed(1)} ms`);
