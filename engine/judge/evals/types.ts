import type { EvalCase } from "../../../schema/evals/evals.js";

export type { EvalCase, EvalsDocument } from "../../../schema/evals/evals.js";

/** How one assertion came out: `not_evaluated` when the run cannot tell (no transcript, a failing golden call). */
export type AssertionStatus = "passed" | "failed" | "not_evaluated";

/** One assertion's result, with the evidence a reader needs to see why. */
export interface AssertionResult {
  /** Which assertion: `calls[0] tickets/close-ticket`, `state.unchanged tickets.tickets`, `never[0] no ticket deleted`. */
  assertion: string;
  /** `calls`, `order`, `exclusive`, `callCount`, `state`, `diff`, `assert`, `milestone`, `never`, `golden`, `answer`, `run`. */
  kind: string;
  passed: boolean;
  status: AssertionStatus;
  message: string;
  evidence?: unknown;
  /** How much it counts in the trial's score, when not 1. */
  weight?: number;
  /** A broken minefield that zeroes the trial's score. */
  zeroes?: boolean;
  /** A rubric no judge could grade (no cached judgment, no key): not evaluated, and the only thing a keyless run lacks. */
  unjudged?: boolean;
}

/** A trial's score: the weighted share of the scored assertions that passed, and what it left out. */
export interface Score {
  /** In [0, 1]; absent when no assertion with a weight was evaluated. */
  score?: number;
  /** The weight passed and the weight evaluated. */
  passed: number;
  of: number;
  /** Assertions left out because they were not evaluated. */
  notEvaluated: number;
  /** The minefield that zeroed the score. */
  zeroedBy?: string;
}

/** What judging rubrics cost: model requests, tokens and dollars, and how many came from the cache. */
export interface JudgeCost {
  requests: number;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  /** Rubrics judged from the cache, and by a model now. */
  cached: number;
  judged: number;
}

/**
 * A case's verdict: `fail` when any assertion failed (or, with `minScore`, when the score falls
 * short whatever the unevaluated ones would give), `not_evaluated` when none failed but one could
 * not be evaluated, `skipped` when all that is missing is rubrics no judge could grade (no cached
 * judgment, no key): like a keyless model case, never a pass.
 */
export interface Verdict {
  case: string;
  verdict: "pass" | "fail" | "not_evaluated" | "skipped";
  results: AssertionResult[];
  /** The weighted share of assertions passed (see `Score`). */
  score: Score;
  /** What judging the rubrics cost, when the case has any. */
  judge?: JudgeCost;
  durationMs: number;
}

/** The parts of a case the judge reads (`prompt`: the task a rubric's judge is told). */
export type JudgedCase = Pick<EvalCase, "id" | "scenario" | "clock" | "expect"> & Partial<Pick<EvalCase, "minScore" | "prompt">>;

export const passed = (kind: string, assertion: string, message: string, evidence?: unknown): AssertionResult => ({
  assertion,
  kind,
  passed: true,
  status: "passed",
  message,
  ...(evidence === undefined ? {} : { evidence }),
});
export const failed = (kind: string, assertion: string, message: string, evidence?: unknown): AssertionResult => ({
  assertion,
  kind,
  passed: false,
  status: "failed",
  message,
  ...(evidence === undefined ? {} : { evidence }),
});
export const notEvaluated = (kind: string, assertion: string, message: string, evidence?: unknown): AssertionResult => ({
  assertion,
  kind,
  passed: false,
  status: "not_evaluated",
  message,
  ...(evidence === undefined ? {} : { evidence }),
});
