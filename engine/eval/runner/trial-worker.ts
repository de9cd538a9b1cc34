/**
 * A worker process of `eval --workers N` (forked by worker-trials.ts): its own host of the
 * fakes and its own agent hosts, running the trials its parent hands it and handing back their
 * lines. The parent keeps the budget (each charge is reported, the others' spend comes back)
 * and the provider limits (each model request asks for a permit), and the folder where the
 * workers share golden replays. It never writes the results file, and ends when told, or when
 * its parent is gone.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { loadEvals, useGoldenStore } from "../../judge/evals/index.js";
import { loadVariant, selectionCatalog } from "../../judge/selection/index.js";
import { FatalRunError } from "../hosts/index.js";
import type { Permit, Price, RequestGate } from "../models/index.js";
import { SpendLedger } from "../models/index.js";
import { rubricJudge } from "../rubrics/index.js";
import { fakesContentHash } from "./case-hash.js";
import { goldenFileStore } from "./golden-file-store.js";
import { localTrials, type TrialRunner } from "./local-trials.js";
import { TrialHosts } from "./trial-hosts.js";
import { hostConfig } from "./trial-plan.js";
import type { FromWorker, ToWorker, WorkerSetup } from "./worker-messages.js";
import { startTracing, stopTracing } from "../../serve/telemetry/index.js";

const send = (message: FromWorker) => {
  // The parent may be gone (it is then told nothing more).
  if (process.connected) process.send!(message, undefined, undefined, () => undefined);
};

/** This worker's view of the run's one budget: its own charges, plus what the parent says the others spent. */
class WorkerLedger extends SpendLedger {
  private ownUsd = 0;
  private othersUsd = 0;

  constructor(budget: { limitUsd?: number; models: string[]; prices: Record<string, Price> }) {
    super(budget.limitUsd, budget.models, budget.prices);
  }

  override add(costUsd: number): void {
    this.ownUsd += costUsd;
    this.dearestUsd = Math.max(this.dearestUsd, costUsd);
    this.spentUsd = this.ownUsd + this.othersUsd;
    send({ type: "charge", costUsd });
  }

  sync(othersUsd: number, dearestUsd: number): void {
    this.othersUsd = othersUsd;
    this.dearestUsd = Math.max(this.dearestUsd, dearestUsd);
    this.spentUsd = this.ownUsd + this.othersUsd;
  }
}

/** Permits asked of the parent, which holds every worker's limits. */
function parentGate(limited: ReadonlySet<string>) {
  let ids = 0;
  const waiting = new Map<number, (permit: Permit) => void>();
  const gate: RequestGate = {
    acquire(provider, signal) {
      if (!limited.has(provider)) return Promise.resolve({ release: () => undefined });
      if (signal?.aborted) return Promise.reject(signal.reason);
      const id = ++ids;
      return new Promise<Permit>((resolve, reject) => {
        const onAbort = () => {
          waiting.delete(id);
          send({ type: "cancel", id });
          reject(signal!.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        waiting.set(id, (permit) => (signal?.removeEventListener("abort", onAbort), resolve(permit)));
        send({ type: "acquire", id, provider });
      });
    },
  };
  const granted = (id: number) => {
    const resolve = waiting.get(id);
    waiting.delete(id);
    let released = false;
    resolve?.({ release: (outcome) => void (released || ((released = true), send({ type: "release", id, ...(outcome ? { outcome } : {}) }))) });
  };
  return { gate, granted };
}

let runner: TrialRunner | undefined;
let ledger: WorkerLedger | undefined;
let permits: ReturnType<typeof parentGate> | undefined;
let cases = new Map<string, import("../../../schema/evals/evals.js").EvalCase>();
let setup: WorkerSetup | undefined;
const controller = new AbortController();

async function start(given: WorkerSetup): Promise<void> {
  // A worker traces its own trials, as the parent would (the variables are inherited).
  await startTracing(process.env, "eval-simulate");
  setup = given;
  const loaded = await loadEvals(given.evals, { allowOutside: given.allowOutside });
  cases = new Map((loaded.evals.cases ?? []).map((c) => [c.id, c]));
  // A case's golden replay, made once by whichever worker judges it first, is shared with the others.
  if (given.golden) useGoldenStore(goldenFileStore({ ...given.golden, fakes: fakesContentHash(loaded.fakes) }));
  const variant = typeof given.variant === "string" ? loadVariant(given.variant, selectionCatalog(loaded.fakes.fakes)) : given.variant;
  ledger = new WorkerLedger(given.budget);
  permits = given.limited.length > 0 ? parentGate(new Set(given.limited)) : undefined;
  const hosts = new TrialHosts({
    env: process.env,
    ledger,
    ...(given.retry ? { retry: given.retry } : {}),
    ...(variant ? { variant } : {}),
    ...(permits ? { gate: permits.gate } : {}),
  });
  runner = await localTrials({
    fakes: loaded.fakes,
    hosts,
    maxWorldBytes: given.maxWorldBytes,
    signal: controller.signal,
    warn: (message) => send({ type: "warn", message }),
    ...(given.suite ? { suite: given.suite } : {}),
    ...(given.judge
      ? { rubrics: rubricJudge({ ...given.judge, env: process.env, ledger, ...(given.retry ? { retry: given.retry } : {}), signal: controller.signal }) }
      : {}),
    ...(variant ? { variant: variant.id } : {}),
    ...(given.dry ? {} : { models: { ...(given.models ? { mode: given.models } : {}), evalsFile: loaded.file, env: process.env } }),
  });
  send({ type: "ready", evalsSha256: createHash("sha256").update(readFileSync(loaded.file)).digest("hex") });
}

function runOne(id: number, caseId: string, iteration: number): void {
  const c = cases.get(caseId);
  if (!runner || !setup || !c) return send({ type: "error", id, message: `[eval-simulate] the worker has no case "${caseId}"` });
  runner
    .run({ case: c, iteration, choice: hostConfig(c, setup) })
    .then((line) => send({ type: "line", id, line }))
    .catch((error: Error) => send({ type: error instanceof FatalRunError ? "fatal" : "error", id, message: error.message }));
}

async function finish(code: number): Promise<never> {
  controller.abort(new Error("the run was interrupted"));
  await runner?.close().catch(() => undefined);
  await stopTracing();
  process.exit(code);
}

// Ctrl-C reaches every process of the terminal's group: the parent decides what it means.
process.on("SIGINT", () => undefined);
process.on("disconnect", () => {
  // The parent is gone (killed, or it would have said close): the run's golden folder is no one's
  // to remove but its workers'. Each removes it; a worker still writing into it only loses a shortcut.
  try {
    if (setup?.golden) rmSync(setup.golden.dir, { recursive: true, force: true });
  } catch {
    // Left in the temporary folder: the OS's to clear.
  }
  void finish(1);
});
process.on("message", (message: ToWorker) => {
  switch (message.type) {
    case "setup":
      return void start(message.setup).catch((error: Error) => send({ type: "setup-failed", message: error.message }));
    case "trial":
      return runOne(message.id, message.case, message.iteration);
    case "spend":
      return ledger?.sync(message.othersUsd, message.dearestUsd);
    case "permit":
      return permits?.granted(message.id);
    case "abort":
      return controller.abort(new Error("the run was interrupted"));
    case "close":
      return void finish(0);
  }
});
