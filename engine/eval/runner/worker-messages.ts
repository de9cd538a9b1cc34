/**
 * What the runner's process and its worker processes say to each other over the IPC channel:
 * the parent hands out trials, the run's spend and request permits; a worker hands back trial
 * lines, its spend, and asks for permits. Plain JSON, so a message is whole or absent.
 */
import type { Variant } from "../../judge/selection/index.js";
import type { RubricJudgeOptions } from "../rubrics/index.js";
import type { Price, RequestOutcome } from "../models/index.js";
import type { TrialLine } from "../results/index.js";
import type { HostChoice } from "./trial-plan.js";
import type { ModelsMode } from "../cassettes/index.js";
import type { GoldenFiles } from "./golden-file-store.js";

/** Everything a worker needs to run any trial of the run. */
export interface WorkerSetup {
  evals: string;
  dry?: boolean;
  /** The run's host (configuration only: a host object cannot cross processes). */
  host?: Exclude<HostChoice, { run: unknown }>;
  variant?: string | Variant;
  maxWorldBytes?: number;
  /** `--record-models` or `--replay-models`: the cases' model traffic (cassettes beside `evals`). */
  models?: ModelsMode;
  /** The retry numbers (a test's sleep function stays in its process). */
  retry?: { retries?: number; baseDelayMs?: number; maxDelayMs?: number };
  suite?: string;
  /** Load a fakes manifest outside the evals file's folder (`--allow-outside`). */
  allowOutside?: boolean;
  /** The rubric judge's settings (the worker judges its trials, its spend counted as the models'). */
  judge?: Omit<RubricJudgeOptions, "env" | "ledger" | "retry" | "signal">;
  budget: { limitUsd?: number; models: string[]; prices: Record<string, Price> };
  /** Providers whose requests need the parent's permit. */
  limited: string[];
  /** Where the workers share golden replays, and the secret their entries are signed with. */
  golden?: GoldenFiles;
}

export type ToWorker =
  | { type: "setup"; setup: WorkerSetup }
  | { type: "trial"; id: number; case: string; iteration: number }
  /** The spend of every other worker, and the dearest request seen, so the budget is one. */
  | { type: "spend"; othersUsd: number; dearestUsd: number }
  | { type: "permit"; id: number }
  | { type: "abort" }
  | { type: "close" };

export type FromWorker =
  | { type: "ready"; evalsSha256?: string }
  | { type: "setup-failed"; message: string }
  | { type: "line"; id: number; line: TrialLine }
  /** A FatalRunError (the run stops), or any other error a trial threw. */
  | { type: "fatal"; id: number; message: string }
  | { type: "error"; id: number; message: string }
  | { type: "charge"; costUsd: number }
  | { type: "acquire"; id: number; provider: string }
  | { type: "release"; id: number; outcome?: RequestOutcome }
  | { type: "cancel"; id: number }
  | { type: "warn"; message: string };
