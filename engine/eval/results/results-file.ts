/**
 * The results file: one NDJSON line per trial, appended as each trial ends, so a run that is
 * stopped (a budget, a fatal error, Ctrl-C) keeps every trial it finished, and a rerun with the
 * same file skips them (resume). A line is written whole with one append, so a crash leaves at
 * most one torn last line, which reading skips.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { JudgeCost, Score } from "../../judge/evals/index.js";
import type { BadCallCounts, OutsideRequest } from "../../judge/selection/index.js";

/**
 * How a trial ended. `pass`/`fail`/`not_evaluated` are the judge's verdicts; `not_run` is a trial
 * lost to infrastructure (a model request that kept failing, the budget, a fatal error), never
 * scored; `skipped` a trial that was never started (no key for its model), or one whose only
 * missing grades are rubrics no judge could grade (no cached judgment, no key).
 */
export type TrialStatus = "pass" | "fail" | "not_evaluated" | "not_run" | "skipped";

/** One trial's line in the results file. */
export interface TrialLine {
  /** The case's id. */
  case: string;
  /** 0-based, below the case's `iterations`. */
  iteration: number;
  /** What ran the agent: `script`, `command:<program>`, or `provider:model`. */
  model: string;
  status: TrialStatus;
  /** Why a trial was not run or skipped, or what failed it outside the judge. */
  reason?: string;
  /** The judge's results (empty for a trial that was not run). */
  assertions: unknown[];
  /** The weighted share of its assertions that passed, in [0, 1] (absent when none was scored). */
  score?: number;
  /** What the score was made of: the weight passed and evaluated, assertions left out, the minefield that zeroed it. */
  scoring?: Omit<Score, "score">;
  /** What grading the trial's rubrics cost (requests, tokens, dollars; judgments read from the cache). */
  judge?: JudgeCost;
  /** Tool calls the session answered. */
  calls: number;
  /** Model requests made (0 for the script and command hosts). */
  requests: number;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  durationMs: number;
  /** The agent's final message. */
  answer?: string;
  /** The session the trial ran in and its record lines (what the judge read). */
  session?: { id: string; record: unknown[] };
  /** The case's planned trials and the share that must pass (1 when the case sets none). */
  iterations?: number;
  accuracyThreshold?: number;
  /** The score a trial passes by, when the case sets one. */
  minScore?: number;
  /** The tool-description variant the model was offered (`--variant`): `compare` labels runs by it. */
  variant?: string;
  /** Bad calls in the trial's record (see engine/judge/selection/bad-calls.ts). */
  badCalls?: BadCallCounts;
  /** The first requests its agent sent outside its session (`badCalls.outsideSession` counts them all). */
  outside?: OutsideRequest[];
  /** The suite the line belongs to (the evals file). */
  suite?: string;
  startedAt: string;
}

/** Trials that count as done on resume: judged ones. A trial not run or skipped is tried again. */
export const DONE_STATUSES: ReadonlySet<TrialStatus> = new Set(["pass", "fail", "not_evaluated"]);

/**
 * The key a trial is resumed by: its case, iteration and model (a rerun with another model
 * runs every trial again).
 *
 * @example trialKey({ case: "close-ticket", iteration: 2, model: "script" }) // "close-ticket#2@script"
 */
export function trialKey(trial: Pick<TrialLine, "case" | "iteration" | "model">): string {
  return `${trial.case}#${trial.iteration}@${trial.model}`;
}

/**
 * Every trial line of a results file, in order; a later line for the same trial replaces an
 * earlier one (a rerun of a trial not run). A missing file is an empty run; a line that is not
 * JSON (a torn last write) is skipped and reported through `warn`.
 *
 * @example const lines = readResults("eval-results/2026-11-30-abc1234.ndjson");
 */
export function readResults(file: string, warn: (message: string) => void = () => undefined): TrialLine[] {
  if (!existsSync(file)) return [];
  const byKey = new Map<string, TrialLine>();
  readFileSync(file, "utf8").split("\n").forEach((text, index) => {
    if (text.trim() === "") return;
    let line: TrialLine;
    try {
      line = JSON.parse(text) as TrialLine;
    } catch {
      warn(`[eval-simulate] warning: ${file}:${index + 1} is not a JSON line (a torn write?); skipped`);
      return;
    }
    if (typeof line?.case !== "string" || typeof line.iteration !== "number" || typeof line.status !== "string") {
      warn(`[eval-simulate] warning: ${file}:${index + 1} is not a trial line; skipped`);
      return;
    }
    byKey.delete(trialKey(line));
    byKey.set(trialKey(line), line);
  });
  return [...byKey.values()];
}

/**
 * The keys of the trials a results file already holds as done (see `DONE_STATUSES`).
 *
 * @example if (doneTrials(out).has(trialKey(trial))) return; // resume
 */
export function doneTrials(lines: readonly TrialLine[]): Set<string> {
  return new Set(lines.filter((line) => DONE_STATUSES.has(line.status)).map(trialKey));
}

/**
 * Appends one trial's line (creating the file and its folder).
 *
 * @example appendResult("eval-results/run.ndjson", line);
 */
export function appendResult(file: string, line: TrialLine): void {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}
