/**
 * `eval --workers N`: the run's trials in N worker processes (trial-worker.ts), each with its
 * own event loop and host of the fakes. This process stays the one place of the run's state:
 * it hands each trial to the worker with the fewest in flight, counts every worker's spend
 * against the one budget (and tells each the others' spend), grants request permits under the
 * provider limits, makes the folder where the workers share golden replays (`golden-file-store.ts`,
 * removed when they close), and writes the results. A worker that dies loses only the trials it held:
 * they come back "not run" (the run is then PRELIMINARY) and the others go on; with no worker
 * left, the run stops.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "../../author/manifest/index.js";
import type { Variant } from "../../judge/selection/index.js";
import { FatalRunError } from "../hosts/index.js";
import type { Permit, ProviderLimits, RetryOptions, SpendLedger } from "../models/index.js";
import type { TrialLine } from "../results/index.js";
import type { TrialRunner } from "./local-trials.js";
import { caseFields } from "./trial.js";
import { type HostChoice, isAgentHost, type PlannedTrial } from "./trial-plan.js";
import type { FromWorker, ToWorker, WorkerSetup } from "./worker-messages.js";
import type { ModelsMode } from "../cassettes/index.js";

export interface WorkerTrialsInput {
  workers: number;
  /** The evals file (workers load it themselves). */
  evals: string | undefined;
  todo: readonly PlannedTrial[];
  dry?: boolean;
  host?: HostChoice;
  variant?: string | Variant;
  env: NodeJS.ProcessEnv;
  ledger: SpendLedger;
  limits?: ProviderLimits;
  retry?: RetryOptions;
  maxWorldBytes?: number;
  models?: ModelsMode;
  suite?: string;
  allowOutside?: boolean;
  judge?: WorkerSetup["judge"];
  /** Names a lost trial's host in its line. */
  labelOf: (choice: HostChoice) => string;
  signal: AbortSignal;
  warn?: (message: string) => void;
}

/** How long a worker told to close may take before it is killed. */
const CLOSE_GRACE_MS = 10_000;

/** Hooks that load modules (`--import`, `--require`, `--loader`) and their values. */
const LOADER_FLAGS = /^--(import|require|loader|experimental-loader)(=|$)|^-r$/;

/**
 * This process's node flags a worker gets (a heap limit, say, as fork passes them), less any
 * module hooks: a TypeScript loader that ran this process's scripts must not load the built worker.
 */
function nodeFlags(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    if (!LOADER_FLAGS.test(flag)) kept.push(flag);
    else if (!flag.includes("=")) i++;
  }
  return kept;
}

/**
 * The worker entry: the build's trial-worker.js. Run from a build (the package's bundle, or
 * tsc's files), with this process's node flags; run from the sources (tests, the repo's own
 * scripts), the build's worker as `npm run build` leaves it in dist/, without the flags that ran
 * the sources; else the .ts through jiti, which cannot load every provider package.
 */
function workerEntry(): { file: string; execArgv: string[] } {
  const here = dirname(fileURLToPath(import.meta.url));
  const dist = join(packageRoot(), "dist");
  const built = join(dist, "engine/eval/runner/trial-worker.js");
  if (existsSync(built)) return { file: built, execArgv: relative(dist, here).startsWith("..") ? [] : nodeFlags(process.execArgv) };
  const jiti = join(dirname(createRequire(import.meta.url).resolve("jiti")), "jiti-register.mjs");
  return { file: join(here, "trial-worker.ts"), execArgv: ["--import", jiti] };
}

interface Worker {
  child: ChildProcess;
  alive: boolean;
  closing: boolean;
  pending: Map<number, { trial: PlannedTrial; startedAt: string; started: number; resolve(line: TrialLine): void; reject(error: Error): void }>;
  /** Permits this worker holds, and the acquires it is waiting on. */
  held: Map<number, Permit>;
  asking: Map<number, AbortController>;
  spentUsd: number;
}

/**
 * Starts the workers (no more than there are trials) and waits until each has loaded the run.
 *
 * @example const runner = await workerTrials({ workers: 4, evals: "evals.yaml", todo, env, ledger, labelOf, signal });
 */
export async function workerTrials(input: WorkerTrialsInput): Promise<TrialRunner> {
  if (input.evals === undefined) throw new Error("[eval-simulate] --workers needs the evals as a file: workers load it themselves");
  if (input.host && isAgentHost(input.host))
    throw new Error("[eval-simulate] --workers needs the host as configuration ({ type: model, … }); a host object cannot cross to a worker process");
  const setup: WorkerSetup = {
    evals: input.evals,
    ...(input.dry ? { dry: true } : {}),
    ...(input.host ? { host: input.host as WorkerSetup["host"] } : {}),
    ...(input.variant !== undefined ? { variant: input.variant } : {}),
    ...(input.maxWorldBytes !== undefined ? { maxWorldBytes: input.maxWorldBytes } : {}),
    ...(input.retry ? { retry: { retries: input.retry.retries, baseDelayMs: input.retry.baseDelayMs, maxDelayMs: input.retry.maxDelayMs } } : {}),
    ...(input.suite ? { suite: input.suite } : {}),
    ...(input.models ? { models: input.models } : {}),
    ...(input.allowOutside ? { allowOutside: true } : {}),
    ...(input.judge ? { judge: input.judge } : {}),
    budget: { limitUsd: input.ledger.limitUsd, models: [], prices: { ...input.ledger.prices } },
    limited: input.limits ? input.limits.statuses().map((s) => s.provider) : [],
    // The run's own folder (private to its user) and a secret that never leaves its processes.
    golden: { dir: mkdtempSync(join(tmpdir(), "eval-simulate-golden-")), secret: randomBytes(32).toString("hex") },
  };
  const golden = setup.golden!.dir;
  const entry = workerEntry();
  const workers: Worker[] = [];
  let ids = 0;
  const post = (worker: Worker, message: ToWorker) => {
    if (worker.alive && worker.child.connected) worker.child.send(message, undefined, undefined, () => undefined);
  };
  /** Each worker learns what the others spent: one budget across processes. */
  const share = () => {
    for (const worker of workers) post(worker, { type: "spend", othersUsd: input.ledger.spentUsd - worker.spentUsd, dearestUsd: input.ledger.dearestUsd });
  };
  const lost = (worker: Worker, why: string) => {
    worker.alive = false;
    for (const permit of worker.held.values()) permit.release();
    for (const asking of worker.asking.values()) asking.abort(new Error(why));
    worker.held.clear();
    worker.asking.clear();
    for (const [id, pending] of worker.pending) {
      worker.pending.delete(id);
      const { trial } = pending;
      pending.resolve({
        case: trial.case.id,
        iteration: trial.iteration,
        model: input.labelOf(trial.choice),
        ...caseFields(trial.case),
        ...(input.suite ? { suite: input.suite } : {}),
        status: "not_run",
        reason: why,
        assertions: [],
        calls: 0,
        requests: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        durationMs: Math.round((performance.now() - pending.started) * 100) / 100,
        startedAt: pending.startedAt,
        endedAt: new Date().toISOString(),
      });
    }
  };

  const onMessage = (worker: Worker, message: FromWorker) => {
    switch (message.type) {
      case "line": {
        const pending = worker.pending.get(message.id);
        worker.pending.delete(message.id);
        return pending?.resolve(message.line);
      }
      case "fatal":
      case "error": {
        const pending = worker.pending.get(message.id);
        worker.pending.delete(message.id);
        return pending?.reject(message.type === "fatal" ? new FatalRunError(message.message) : new Error(message.message));
      }
      case "charge":
        worker.spentUsd += message.costUsd;
        input.ledger.add(message.costUsd);
        return share();
      case "acquire": {
        const asking = new AbortController();
        worker.asking.set(message.id, asking);
        input.limits!.acquire(message.provider, asking.signal).then(
          (permit) => {
            worker.asking.delete(message.id);
            if (!worker.alive || asking.signal.aborted) return permit.release();
            worker.held.set(message.id, permit);
            post(worker, { type: "permit", id: message.id });
          },
          () => worker.asking.delete(message.id),
        );
        return;
      }
      case "release":
        worker.held.get(message.id)?.release(message.outcome);
        return void worker.held.delete(message.id);
      case "cancel":
        worker.asking.get(message.id)?.abort(new Error("cancelled"));
        worker.held.get(message.id)?.release();
        return void worker.held.delete(message.id);
      case "warn":
        return input.warn?.(message.message);
    }
  };

  const count = Math.max(1, Math.min(input.workers, input.todo.length));
  const ready = Array.from({ length: count }, () => {
    const child = fork(entry.file, [], { env: input.env, execArgv: entry.execArgv, stdio: ["ignore", "ignore", "inherit", "ipc"], serialization: "json" });
    const worker: Worker = { child, alive: true, closing: false, pending: new Map(), held: new Map(), asking: new Map(), spentUsd: 0 };
    workers.push(worker);
    return new Promise<void>((resolve, reject) => {
      child.on("message", (message: FromWorker) => {
        if (message.type === "ready") return resolve();
        if (message.type === "setup-failed") return reject(new Error(message.message));
        onMessage(worker, message);
      });
      child.on("error", (error) => (lost(worker, `the worker process could not run: ${error.message}`), reject(error)));
      child.on("exit", (code, signal) => {
        const why = `the worker process ${child.pid} died (${signal ?? `exit code ${code}`}) during the trial`;
        if (worker.alive && !worker.closing) input.warn?.(`[eval-simulate] warning: ${why.replace(" during the trial", "")}; its trials are not run`);
        lost(worker, why);
        reject(new Error(`[eval-simulate] ${why.replace(" during the trial", "")} while loading the run`));
      });
      post(worker, { type: "setup", setup });
    });
  });
  const close = async () => {
    await Promise.all(
      workers.map(async (worker) => {
        worker.closing = true;
        if (!worker.alive) return;
        const exited = new Promise<void>((resolve) => worker.child.once("exit", () => resolve()));
        post(worker, { type: "close" });
        const timer = setTimeout(() => worker.child.kill("SIGKILL"), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
    rmSync(golden, { recursive: true, force: true });
  };
  try {
    await Promise.all(ready);
  } catch (error) {
    await close();
    throw error;
  }
  const onAbort = () => workers.forEach((worker) => post(worker, { type: "abort" }));
  input.signal.addEventListener("abort", onAbort, { once: true });
  return {
    run(trial) {
      const live = workers.filter((w) => w.alive);
      if (live.length === 0) return Promise.reject(new FatalRunError("[eval-simulate] every worker process died"));
      const worker = live.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const id = ++ids;
      return new Promise<TrialLine>((resolve, reject) => {
        worker.pending.set(id, { trial, startedAt: new Date().toISOString(), started: performance.now(), resolve, reject });
        post(worker, { type: "trial", id, case: trial.case.id, iteration: trial.iteration });
      });
    },
    async close() {
      input.signal.removeEventListener("abort", onAbort);
      await close();
    },
  };
}
