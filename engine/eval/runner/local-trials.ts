/**
 * Trials run in this process: one host of the fakes, a session per trial behind a token only
 * this process holds, each trial's record lines collected as the host makes them.
 */
import { randomBytes } from "node:crypto";
import type { LoadedFakes } from "../../author/fakes/index.js";
import { startServices } from "../../serve/host/index.js";
import type { RubricJudge } from "../../judge/evals/index.js";
import type { TrialLine } from "../results/index.js";
import type { RunModels } from "../cassettes/index.js";
import { RecordCollector } from "./record-collector.js";
import { runTrial } from "./trial.js";
import type { TrialHosts } from "./trial-hosts.js";
import type { PlannedTrial } from "./trial-plan.js";

/** Where a run's trials are run: in this process, or in worker processes. */
export interface TrialRunner {
  /** Runs one trial; throws only a FatalRunError (the run must stop). */
  run(trial: PlannedTrial): Promise<TrialLine>;
  /** Frees the hosts, sessions and processes. */
  close(): Promise<void>;
}

export interface LocalTrialsInput {
  fakes: LoadedFakes;
  hosts: TrialHosts;
  /** The most bytes of JSON one trial's world may hold. */
  maxWorldBytes?: number;
  signal: AbortSignal;
  suite?: string;
  variant?: string;
  /** Grades the cases' rubrics. */
  rubrics?: RubricJudge;
  warn?: (message: string) => void;
  /** How the cases' model traffic is served. */
  models?: RunModels;
}

/**
 * Starts the fakes' host for a run's trials.
 *
 * @example const runner = await localTrials({ fakes, hosts, signal }); const line = await runner.run(trial);
 */
export async function localTrials(input: LocalTrialsInput): Promise<TrialRunner> {
  const records = new RecordCollector();
  // The session and admin routes behind a token only this process holds, and no world but the
  // trials' own: an agent can neither list, reset nor read another trial's session, nor share one.
  const services = await startServices(input.fakes.fakes, {
    world: input.fakes.world,
    onRecord: records.listener,
    onOutside: records.outside,
    adminToken: randomBytes(32).toString("base64url"),
    sessionsOnly: true,
    ...(input.maxWorldBytes !== undefined ? { maxWorldBytes: input.maxWorldBytes } : {}),
    warn: input.warn,
  });
  return {
    run: (trial) =>
      runTrial({
        host: input.hosts.of(trial.choice),
        case: trial.case,
        iteration: trial.iteration,
        services,
        fakes: input.fakes,
        records,
        signal: input.signal,
        ...(input.suite ? { suite: input.suite } : {}),
        ...(input.variant ? { variant: input.variant } : {}),
        ...(input.rubrics ? { rubrics: input.rubrics } : {}),
        ...(input.models ? { models: input.models } : {}),
        userFor: input.hosts.userFor(trial.case, trial.choice),
      }),
    async close() {
      await input.hosts.close();
      await services.close();
    },
  };
}
