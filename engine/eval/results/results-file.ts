/**
 * The results file: one NDJSON line per trial, appended as each trial ends, so a run that is
 * stopped (a budget, a fatal error, Ctrl-C) keeps every trial it finished, and a rerun with the
 * same file skips them (resume). A line is written whole with one append, so a crash leaves at
 * most one torn last line; the next append starts on a fresh line after it, so the torn line
 * never swallows a trial. Reading is line by line under caps, and a line of the wrong shape is
 * an error naming its file and line.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { JudgeCost, Score } from "../../judge/evals/index.js";
import type { BadCallCounts, OutsideRequest } from "../../judge/selection/index.js";
import type { TranscriptMessage } from "../hosts/index.js";
import { checkRegularFile, type LineLimits, readRegularLines } from "../../core/files/index.js";
import { trialLineProblem } from "./trial-line-check.js";
import { cutEvidence } from "./trial-line-fit.js";

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
  /** The agent's final message (at most 1 MiB: see `answerBytes`). */
  answer?: string;
  /** The answer's length in bytes when it was longer than 1 MiB and cut (the judge read the cut answer). */
  answerBytes?: number;
  /**
   * The session the trial ran in and its record lines (what the judge read), at most 1 MiB of
   * them: past it calls are kept by name only, then no more, and `truncated` counts what was kept.
   */
  session?: { id: string; record: unknown[]; truncated?: { calls: number; whole: number; named: number } };
  /** True when the line was past the line cap and its assertions' evidence was cut. */
  evidenceCut?: boolean;
  /**
   * A conversation's every message, both sides, in order (`turn`, `role`, `content`, tool calls
   * with their results, commits and side), as the judge read it: also what a run folder's
   * `transcript.json` holds for `verify`. At most 4 MiB: see `transcriptCut`.
   */
  transcript?: TranscriptMessage[];
  /** A conversation's turns (a user message and the agent's reply each). */
  turns?: number;
  /** When the transcript was past 4 MiB: its messages, and how many were kept whole (the rest without results, contents shortened). */
  transcriptCut?: { messages: number; whole: number };
  /** What the simulated user spent, apart from the agent's `requests`, `usage` and `costUsd` (both count against the budget). */
  user?: { model: string; requests: number; usage: { inputTokens: number; outputTokens: number }; costUsd: number };
  /** The case's planned trials and the share that must pass (1 when the case sets none). */
  iterations?: number;
  accuracyThreshold?: number;
  /** The score a trial passes by, when the case sets one. */
  minScore?: number;
  /** The case's tags, when it has some. */
  tags?: string[];
  /** The tool-description variant the model was offered (`--variant`): `compare` labels runs by it. */
  variant?: string;
  /** Bad calls in the trial's record (see engine/judge/selection/bad-calls.ts). */
  badCalls?: BadCallCounts;
  /** The first requests its agent sent outside its session (`badCalls.outsideSession` counts them all). */
  outside?: OutsideRequest[];
  /** The suite the line belongs to: the evals file, relative to its git checkout (else the working directory). */
  suite?: string;
  /** The trial's OpenTelemetry trace id (32 hex digits), when the run was traced (docs/tracing.md). */
  traceId?: string;
  startedAt: string;
  /** When the trial ended. */
  endedAt?: string;
  /** The part of the run that ran it (`eval --shard i/n`). */
  shard?: string;
  /** The trials of the whole run, every shard's: a merge holding fewer is missing some. */
  runTrials?: number;
  /** The machine that ran it. */
  hostname?: string;
  /** The commit of the evals file's checkout, when it is in one. */
  gitSha?: string;
  /** sha256 of the evals file's bytes. */
  evalsSha256?: string;
  /**
   * What the trial was judged against: a hash of its case and of the fakes' content it ran on
   * (engine/eval/runner/case-hash.ts). A resume reuses the line only while the hash is the same.
   */
  caseHash?: string;
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
 * The caps of a results file read: a line of 16 MiB (a trial's line holds at most a 1 MiB
 * answer and a 4 MiB record, see `fitTrialLine`) and a file of 512 MiB.
 */
export const RESULTS_LIMITS: LineLimits = { maxLineBytes: 16 * 1024 * 1024, maxBytes: 512 * 1024 * 1024 };

/** A results file read: its trial lines, and the number of a last line that no newline ends (a torn write). */
export interface ResultsRead {
  lines: TrialLine[];
  torn?: number;
}

/** What every torn write begins with: the `{` of a line `JSON.stringify` wrote. */
const looksTorn = (text: string) => text.trimStart().startsWith("{");

/**
 * Reads a results file as `readResults` does, and says which last line, if any, was cut short
 * (a run killed mid-append), for the caller to report: skipped by a report, repaired by a resume.
 *
 * @example const { lines, torn } = readResultsFile("eval-results/run.ndjson");
 */
export function readResultsFile(file: string, warn: (message: string) => void = () => undefined, limits: LineLimits = RESULTS_LIMITS): ResultsRead {
  const byKey = new Map<string, TrialLine>();
  let torn: number | undefined;
  const read = readRegularLines(file, limits, (text, number, unterminated) => {
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // A write cut short is the start of a line JSON.stringify wrote; anything else is not a results file.
      if (!looksTorn(text)) throw new Error(`[eval-simulate] ${file}:${number}: not a JSON line: a results file holds one trial's JSON per line`);
      if (unterminated) torn = number;
      else warn(`[eval-simulate] warning: ${file}:${number} is a line cut short (an interrupted write); skipped`);
      return;
    }
    const problem = trialLineProblem(value);
    if (problem) throw new Error(`[eval-simulate] ${file}:${number}: not a trial line: ${problem}`);
    const line = value as TrialLine;
    byKey.delete(trialKey(line));
    byKey.set(trialKey(line), line);
  });
  if (!read.ok && read.code !== "ENOENT")
    throw new Error(read.line === undefined ? `[eval-simulate] ${file} ${read.reason}` : `[eval-simulate] ${file}:${read.line}: ${read.reason}`);
  return { lines: [...byKey.values()], ...(torn === undefined ? {} : { torn }) };
}

/**
 * Every trial line of a results file, in order; a later line for the same trial replaces an
 * earlier one (a rerun of a trial not run). A missing file is an empty run; a line cut short (a
 * torn write) is skipped and reported through `warn`. Throws naming the file and line of a line
 * that is not a trial line (the wrong types, a line past `RESULTS_LIMITS`), and a file that is
 * not a regular file under the cap.
 *
 * @example const lines = readResults("eval-results/2026-11-30-abc1234.ndjson");
 */
export function readResults(file: string, warn: (message: string) => void = () => undefined): TrialLine[] {
  const { lines, torn } = readResultsFile(file, warn);
  if (torn !== undefined) warn(`[eval-simulate] warning: ${file}:${torn} is a last line cut short (an interrupted write); skipped`);
  return lines;
}

/**
 * The keys of the trials a results file already holds as done (see `DONE_STATUSES`).
 *
 * @example if (doneTrials(out).has(trialKey(trial))) return; // resume
 */
export function doneTrials(lines: readonly TrialLine[]): Set<string> {
  return new Set(doneLines(lines).keys());
}

/**
 * The trials a results file already holds as done, by trial key: one pass, for a resume's lookups.
 *
 * @example const stored = doneLines(previous).get(trialKey(trial));
 */
export function doneLines(lines: readonly TrialLine[]): Map<string, TrialLine> {
  const out = new Map<string, TrialLine>();
  for (const line of lines) if (DONE_STATUSES.has(line.status)) out.set(trialKey(line), line);
  return out;
}

/** Whether a file ends in a newline (an empty one does): where the next line may start. */
function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/**
 * Ends a torn last line with a newline, saying so: the line stays skipped, and what is appended
 * next is a line of its own. A resume calls it once, before its first append.
 *
 * @example if (torn !== undefined) repairTornLine(out, torn, warn);
 */
export function repairTornLine(file: string, line: number, warn: (message: string) => void = () => undefined): void {
  const fd = openSync(file, "a+");
  try {
    if (!endsWithNewline(fd)) writeSync(fd, "\n");
  } finally {
    closeSync(fd);
  }
  warn(
    `[eval-simulate] warning: ${file}:${line} was cut short (an interrupted write): skipped, and repaired with a newline so the next trial starts on a fresh line`,
  );
}

/**
 * Appends one trial's line (creating the file and its folder), on a fresh line: after a torn
 * last line a newline ends it first, so the new trial is never read as part of it. Only a
 * regular file is appended to (a FIFO would block the run).
 *
 * @example appendResult("eval-results/run.ndjson", line);
 */
export function appendResult(file: string, line: TrialLine): void {
  mkdirSync(dirname(file), { recursive: true });
  const checked = checkRegularFile(file, Number.MAX_SAFE_INTEGER);
  if (!checked.ok && checked.code !== "ENOENT") throw new Error(`[eval-simulate] cannot append to ${file}: it ${checked.reason}`);
  let text = JSON.stringify(line);
  // A line the reader would refuse is never written: past the cap, its evidence goes.
  if (Buffer.byteLength(text) > RESULTS_LIMITS.maxLineBytes) text = JSON.stringify(cutEvidence(line));
  const fd = openSync(file, "a+");
  try {
    writeSync(fd, `${endsWithNewline(fd) ? "" : "\n"}${text}\n`);
  } finally {
    closeSync(fd);
  }
}
