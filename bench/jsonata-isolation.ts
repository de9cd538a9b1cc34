/**
 * What isolating JSONata evaluation in a worker thread would add to each call, against
 * evaluating on the main thread as the engine does (under its guard and the watchdog). A worker
 * can be terminated whatever it is stuck in; the question is whether that is worth its price.
 *
 *   npm run build && node --import jiti/register bench/jsonata-isolation.ts
 *
 * The evaluation itself costs the same on either thread, so what isolation adds is measured on
 * its own: a message's round trip to a worker, copying in the state the call reads (structured
 * clone; the engine hands jsonata the committed state by reference), and for a hard kill per
 * call, starting a worker and terminating it. Medians of interleaved rounds; the machine's load
 * moves every number, the ratios move less.
 */
import { Worker } from "node:worker_threads";
import { compileJsonataHandler, runJsonataHandler } from "../engine/author/handlers/jsonata-index.js";
import { watched } from "../engine/author/handlers/jsonata-watchdog.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SIZES = [100, Number(process.env.BENCH_ITEMS ?? 10_000)];
const SOURCE = '{ "records": [$state.records[owner = $args.owner]][[0..9]] }';

const stateOf = (n: number) => ({
  records: Array.from({ length: n }, (_, i) => ({ id: `r-${i}`, owner: i % 10 === 0 ? "ada" : "bob", title: `Record ${i}`, amount: i })),
});

/** Microseconds per call of `run`, over `calls` calls after a warm-up. */
async function perCall(calls: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(20, calls); i++) await run();
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await run();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);

/** A worker that answers each message with a small one, having received (and so copied) it. */
const ECHO = `require("node:worker_threads").parentPort.on("message", function () { this.postMessage(1); });`;
const echo = new Worker(ECHO, { eval: true });
const roundTrip = (message: unknown) => new Promise((resolve) => echo.once("message", resolve).postMessage(message));
const startAndTerminate = () =>
  new Promise<void>((resolve, reject) => {
    const worker = new Worker(ECHO, { eval: true });
    worker.once("online", () => void worker.terminate().then(() => resolve()));
    worker.once("error", reject);
  });

const handler = compileJsonataHandler(SOURCE);
if (!handler.ok) throw new Error("the bench's handler does not compile");

const samples = new Map<string, number[]>();
const sample = (key: string, us: number) => samples.set(key, [...(samples.get(key) ?? []), us]);
const states = SIZES.map((size) => ({ size, state: stateOf(size) }));

for (let round = 0; round < ROUNDS; round++) {
  sample("empty", await perCall(CALLS * 10, () => Promise.resolve(1)));
  sample("watched", await perCall(CALLS * 10, () => watched(() => Promise.resolve(1))));
  sample("trip", await perCall(CALLS, () => roundTrip(1)));
  sample("start", await perCall(Math.max(3, Math.round(CALLS / 100)), startAndTerminate));
  for (const { size, state } of states) {
    const calls = size > 1000 ? Math.max(5, Math.round(CALLS / 50)) : CALLS;
    const input = { args: { owner: "ada" }, state, world: {}, now: "2026-01-01T00:00:00.000Z", scenario: "s", labelId: (l: string) => l, log() {} };
    sample(`main ${size}`, await perCall(calls, () => runJsonataHandler(handler.handler, input)));
    sample(`copy ${size}`, await perCall(calls, () => roundTrip({ args: input.args, state })));
  }
}
await echo.terminate();

const m = (key: string) => median(samples.get(key)!);
console.log(`JSONata isolation, per call (${SOURCE}; medians of ${ROUNDS} rounds)`);
const row = (what: string, records: string, us: string, note = "") => console.log(`${what.padEnd(58)}${records.padStart(8)}  ${us.padStart(10)}  ${note}`);
row("subject", "records", "per call");
row("watchdog's share of a run (watched() around nothing)", "-", fmt(m("watched") - m("empty")));
row("a message's round trip to a worker", "-", fmt(m("trip")));
row("starting and terminating a worker (a hard kill per call)", "-", fmt(m("start")));
for (const { size } of states) {
  const main = m(`main ${size}`);
  const copy = m(`copy ${size}`);
  const records = size.toLocaleString("en");
  row("main thread, guarded (the engine today)", records, fmt(main));
  row("  + in a persistent worker: round trip and state copied in", records, fmt(copy), `+${((copy / main) * 100).toFixed(0)}%`);
  row("  + in a worker per call: start, copy, terminate", records, fmt(copy + m("start")), `+${(((copy + m("start")) / main) * 100).toFixed(0)}%`);
}
