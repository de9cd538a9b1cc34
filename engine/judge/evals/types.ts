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
}

/** A case's verdict: `fail` when any assertion failed, `not_evaluated` when none failed but one could not be evaluated. */
export interface Verdict {
  case: string;
  verdict: "pass" | "fail" | "not_evaluated";
  results: AssertionResult[];
  durationMs: number;
}

/** The parts of a case the judge reads. */
export type JudgedCase = Pick<EvalCase, "id" | "scenario" | "clock" | "expect">;

export const passed = (kind: string, assertion: string, message: string, evidence?: unknown): AssertionResult => ({ assertion, kind, passed: true, status: "passed", message, ...(evidence === undefined ? {} : { evidence }) });
export const failed = (kind: string, assertion: string, message: string, evidence?: unknown): AssertionResult => ({ assertion, kind, passed: false, status: "failed", message, ...(evidence === undefined ? {} : { evidence }) });
export const notEvaluated = (kind: string, assertion: string, message: string, evidence?: unknown): AssertionResult => ({ assertion, kind, passed: false, status: "not_evaluated", message, ...(evidence === undefined ? {} : { evidence }) });
