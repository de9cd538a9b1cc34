/**
 * What `--state-file` costs a write: the same write (a counter bumped by a JSONata handler) on a
 * fake whose `items` entity holds 10 records and one holding 100,000, each served with and without
 * a state file, side by side in interleaved rounds, each server in its own process, loopback only.
 * With a state file each commit appends one line to `state.json.log` before it is answered; the
 * whole world is written in the background now and then (every 10 s, or once the log outgrows the
 * snapshot), and those snapshots fall inside the measured rounds.
 *
 *   npm run build && node --import jiti/register bench/state-file.ts
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
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
