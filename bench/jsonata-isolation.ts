/**
 * What isolating JSONata evaluation in a worker thread would cost per call, against evaluating
 * on the main thread as the engine does (under its guard and the watchdog). A worker can be
 * terminated whatever it is stuck in; the question is whether that is worth its price.
 *
 *   npm run build && node --import jiti/register bench/jsonata-isolation.ts
 *
 * Subjects, each on a list handler over `records` (10 matches returned):
 * - main thread: `runJsonataHandler`, the engine's path (guard, hooks, copies, watchdog);
 * - the watchdog's own share: `watched()` around an empty evaluation;
 * - a worker per call: started, handed the call, terminated (what a hard kill per call needs);
 * - one persistent worker: the call and the state it reads copied in (structured clone) and the
 *   answer copied out; a stuck worker is terminated and replaced, so every call pays the copies.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { compileJsonataHandler, runJsonataHandler } from "../engine/handlers/jsonata-index.js";
import { watched } from "../engine/handlers/jsonata-watchdog.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const WORKER_CALLS = Math.max(5, Math.round(CALLS / 100));
const SIZES = [100, Number(process.env.BENCH_ITEMS ?? 10_000)];
const SOURCE = '{ "records": [$state.records[owner = $args.owner]][[0..9]] }';
const jsonataPath = createRequire(import.meta.url).resolve("jsonata");

const stateOf = (n: number) => ({
  records: Array.from({ length: n }, (_, i) => ({ id: `r-${i}`, owner: i % 10 === 0 ? "ada" : "bob", title: `Record ${i}`, amount: i })),
});

async function perCall(calls: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(50, calls); i++) await run(); // warm-up
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await run();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const jsonata = require(${JSON.stringify(jsonataPath)});
const compiled = new Map();
const evaluate = async ({ source, args, state }) => {
  let expression = compiled.get(source);
  if (!expression) compiled.set(source, (expression = jsonata(source)));
  return JSON.parse(JSON.stringify(await expression.evaluate(args, { args, state })));
};
if (workerData) evaluate(workerData).then((value) => parentPort.postMessage(value));
else parentPort.on("message", async (call) => parentPort.postMessage(await evaluate(call)));
`;

function workerPerCall(call: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: call });
    worker.once("message", (value) => void worker.terminate().then(() => resolve(value)));
    worker.once("error", reject);
  });
}

function persistentWorker(): { call: (call: object) => Promise<unknown>; close: () => Promise<number> } {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  return {
    call: (call) => new Promise((resolve) => worker.once("message", resolve).postMessage(call)),
    close: () => worker.terminate(),
  };
}

const handler = compileJsonataHandler(SOURCE);
if (!handler.ok) throw new Error("the bench's handler does not compile");
const fmt = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);

console.log(`JSONata isolation: cost per call of ${SOURCE} (${CALLS} calls on the main thread, ${WORKER_CALLS}+ in workers)`);
const line = (r: readonly string[]) => console.log(`${r[0]!.padEnd(62)}${r[1]!.padStart(8)}  ${r[2]}`);
const rows = { push: line };
line(["subject", "records", "per call"]);
const empty = await perCall(CALLS * 10, () => Promise.resolve(1));
const wrapped = await perCall(CALLS * 10, () => watched(() => Promise.resolve(1)));
rows.push(["watched() around an empty evaluation (the watchdog's share)", "-", fmt(wrapped - empty)]);

for (const size of SIZES) {
  const state = stateOf(size);
  const input = { args: { owner: "ada" }, state, world: { crm: state }, now: "2026-01-01T00:00:00.000Z", scenario: "s", labelId: (l: string) => l, log() {} };
  const main = await perCall(size > 1000 ? Math.max(20, CALLS / 20) : CALLS, () => runJsonataHandler(handler.handler, input));
  rows.push([`main thread, guarded (the engine)`, size.toLocaleString("en"), fmt(main)]);
  const call = { source: SOURCE, args: { owner: "ada" }, state };
  const perCallWorker = await perCall(WORKER_CALLS, () => workerPerCall(call));
  rows.push([`a worker per call (start, run, terminate)`, size.toLocaleString("en"), `${fmt(perCallWorker)} (${(perCallWorker / main).toFixed(0)}×)`]);
  const persistent = persistentWorker();
  const kept = await perCall(Math.max(WORKER_CALLS, Math.round(CALLS / (size > 1000 ? 20 : 1))), () => persistent.call(call));
  await persistent.close();
  rows.push([`one persistent worker (state copied in per call)`, size.toLocaleString("en"), `${fmt(kept)} (${(kept / main).toFixed(1)}×)`]);
}

