/**
 * The cost of a call against the size of the state it does not touch: the same read and the
 * same write on a fake whose `items` entity holds 10 records, and one holding 100,000.
 * Interleaved rounds, each server in its own process, loopback only.
 *
 *   npm run build && node --import jiti/register bench/state-size.ts
 */
import { join } from "node:path";
import { CALLED, writeFiftyToolFakes } from "./support/fifty-tools.js";
import { drive, median, post, quantile, type RunResult, toolsCall } from "./support/load.js";
import { ROOT, type Subject, startSubject, table } from "./support/processes.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LARGE = Number(process.env.BENCH_ITEMS ?? 100_000);

const small = writeFiftyToolFakes(join(ROOT, "bench", ".generated", "state-10"), 10);
const large = writeFiftyToolFakes(join(ROOT, "bench", ".generated", `state-${LARGE}`), LARGE);
const serve = (file: string) => [join(ROOT, "dist/cli/main.js"), "serve", file, "--port", "0", "--host", "127.0.0.1"];
const subjects: Subject[] = [
  await startSubject("10 records", serve(small.jsonata)),
  await startSubject(`${LARGE.toLocaleString("en")} records`, serve(large.jsonata)),
];
const calls = { read: toolsCall(CALLED, { id: "abc" }), write: toolsCall("bump", {}) };
const results = new Map<string, Record<keyof typeof calls, RunResult[]>>(subjects.map((s) => [s.label, { read: [], write: [] }]));
try {
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (let i = 0; i < subjects.length; i++) {
      const s = subjects[(i + round) % subjects.length];
      for (const kind of ["read", "write"] as const) {
        const { body, headers } = calls[kind];
        const run = await drive(() => post(`http://127.0.0.1:${s.port}/bench/mcp`, body, headers), CALLS, 1);
        if (round > 0) results.get(s.label)![kind].push(run); // round 0 warms up
      }
    }
  }
} finally {
  await Promise.all(subjects.map((s) => s.stop()));
}
const rows = subjects.map((s) => {
  const r = results.get(s.label)!;
  return {
    label: s.label,
    read: median(r.read.map((x) => x.callsPerSecond)),
    write: median(r.write.map((x) => x.callsPerSecond)),
    readP50: quantile(
      r.read.flatMap((x) => x.latenciesMs),
      0.5,
    ),
    writeP50: quantile(
      r.write.flatMap((x) => x.latenciesMs),
      0.5,
    ),
  };
});
console.log(`One call against the size of the state it does not touch (JSONata handlers, sequential, ${ROUNDS} rounds × ${CALLS} calls)`);
console.log(
  table([
    ["world", "read calls/s", "p50 ms", "write calls/s", "p50 ms"],
    ...rows.map((r) => [r.label, r.read.toFixed(0), r.readP50.toFixed(2), r.write.toFixed(0), r.writeP50.toFixed(2)]),
  ]),
);
console.log(`large / small: read ${(rows[1].read / rows[0].read).toFixed(2)}×, write ${(rows[1].write / rows[0].write).toFixed(2)}× the calls/s`);
