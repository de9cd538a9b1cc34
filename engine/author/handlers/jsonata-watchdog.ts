import { Worker, isMainThread } from "node:worker_threads";
import { RunStop } from "./jsonata-guard.js";

/**
 * The last line of defence for JSONata evaluation: a watchdog thread that stops an evaluation
 * which has blocked the event loop for over a second.
 *
 * The guard, the size caps and the bounded built-ins stop every runaway we know of; a new one
 * (a jsonata built-in doing unbounded work in one synchronous step, like the range loop past
 * 2^53 was) would block the process with no hook running. Evaluating in a worker that can be
 * terminated would contain it, but costs a copy of the state per call (bench/jsonata-isolation.ts
 * measures it), so evaluations stay on the main thread and a watchdog worker watches them: the
 * main thread beats a shared counter every BEAT_MS; when the beat has stopped for STALL_MS while
 * an evaluation is under way, and the process has burned that much CPU meanwhile (a process the
 * machine's load has descheduled is not stuck), the watchdog asks V8, through the inspector, to terminate the
 * JavaScript running on the main thread (`Runtime.terminateExecution`, what a debugger's
 * "stop" does). V8 unwinds it, the event loop carries on, and every evaluation under way fails
 * with a "stopped" error (the one that blocked never settles on its own). Terminating also drops
 * whatever other promise reactions were queued at that moment; that is the price of keeping the
 * process alive, and why this is the last resort, never the plan.
 *
 * Only on the main thread of a process (in a worker thread the inspector would reach the wrong
 * thread) and where the inspector is built in; elsewhere evaluations run unwatched.
 */

/** How long the event loop may stay blocked during an evaluation before it is terminated. */
export const STALL_MS = 1000;
const BEAT_MS = 100;
const CHECK_MS = 100;

/** The watchdog thread: reads the beat and the number of evaluations under way. */
const WATCHDOG_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const shared = new Int32Array(workerData.buffer);
let last = Atomics.load(shared, 0);
let since = Date.now();
let cpu = process.cpuUsage();
setInterval(() => {
  const beat = Atomics.load(shared, 0);
  const now = Date.now();
  if (beat !== last) { last = beat; since = now; cpu = process.cpuUsage(); return; }
  if (now - since < workerData.stallMs || Atomics.load(shared, 1) === 0) return;
  // The process must have burned the stall's length in CPU: one starved by a loaded machine
  // (descheduled, not running) is waiting, not stuck.
  const used = process.cpuUsage(cpu);
  if ((used.user + used.system) / 1000 < workerData.stallMs) return;
  since = now;
  cpu = process.cpuUsage();
  // Required here, on the stall path only: compiling the inspector's modules is a good share
  // of the thread's start, which every process that evaluates JSONata pays.
  const session = new (require("node:inspector").Session)();
  session.connectToMainThread();
  session.post("Runtime.terminateExecution", (error) => {
    session.disconnect();
    parentPort.postMessage({ terminated: !error });
  });
}, workerData.checkMs);
`;

interface Watch {
  shared: Int32Array;
  active: Set<(error: RunStop) => void>;
  /** The heartbeat timer; it holds the process open while evaluations are under way. */
  beat: NodeJS.Timeout;
}

let watch: Watch | null | undefined;

function startWatch(): Watch | null {
  if (!isMainThread) return null;
  try {
    const shared = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { buffer: shared.buffer, stallMs: STALL_MS, checkMs: CHECK_MS } });
    const beat = setInterval(() => Atomics.add(shared, 0, 1), BEAT_MS).unref();
    const state: Watch = { shared, active: new Set(), beat };
    // A watchdog that cannot run (no inspector in this Node) leaves evaluations unwatched.
    worker.on("error", () => {
      watch = null;
      clearInterval(beat);
    });
    worker.on("message", () => {
      const stop = new RunStop("stalled", `${STALL_MS} ms`);
      for (const fail of state.active) fail(stop);
      state.active.clear();
      track(state);
    });
    // After the listeners: attaching one refs the worker.
    worker.unref();
    return state;
  } catch {
    return null;
  }
}

/**
 * Tells the watchdog how many evaluations are under way, and keeps the process open for its
 * message while any is (the heartbeat timer is ref'd then): a blocked evaluation's promise never
 * settles, and nothing else may hold the event loop open (`validate` checking a world).
 */
function track(state: Watch): void {
  const before = Atomics.exchange(state.shared, 1, state.active.size);
  if (before === 0 && state.active.size > 0) state.beat.ref();
  else if (before > 0 && state.active.size === 0) state.beat.unref();
}

/**
 * Runs one evaluation under the watchdog: it settles as `work` does, or fails with a `stalled`
 * RunStop when the watchdog had to terminate a blocked event loop while it was under way.
 *
 * @example const value = await watched(() => compiled.evaluate(input, bindings));
 */
export function watched<T>(work: () => Promise<T>): Promise<T> {
  watch ??= startWatch();
  const state = watch;
  if (!state) return work();
  return new Promise<T>((resolve, reject) => {
    state.active.add(reject);
    // A beat as it starts: a stall before it (unwatched code that blocked) is not held against it.
    Atomics.add(state.shared, 0, 1);
    track(state);
    const done = () => {
      state.active.delete(reject);
      track(state);
    };
    work().then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
