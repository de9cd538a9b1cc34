/**
 * What a whole run's outcome means for CI: every case met its threshold (0), a case fell short
 * (1), or the run cannot be trusted as a measurement (2): trials were lost to infrastructure
 * (PRELIMINARY: never scored as failures), the budget stopped it, or a fatal provider error did.
 */

/** The run's verdict. */
export type RunVerdict = "pass" | "fail" | "preliminary" | "skipped";

/** The counts the verdict is read from. */
export interface RunCounts {
  /** Cases judged complete that met their threshold, and those that did not. */
  passedCases: number;
  failedCases: number;
  /** Trials not run (infrastructure, budget, fatal error) and trials skipped (no key). */
  notRun: number;
  skipped: number;
  /** Trials that ran and were judged. */
  judged: number;
  /** True when the run was stopped before every trial started (budget, fatal error, abort). */
  stopped: boolean;
}

/**
 * PRELIMINARY wins over a failure: a run with trials lost cannot say what the model does.
 * A run where everything was skipped (no key) passes, so keyless CI stays green.
 *
 * @example runVerdict({ passedCases: 3, failedCases: 0, notRun: 1, skipped: 0, judged: 11, stopped: false }) // "preliminary"
 */
export function runVerdict(counts: RunCounts): RunVerdict {
  if (counts.notRun > 0 || counts.stopped) return "preliminary";
  if (counts.failedCases > 0) return "fail";
  if (counts.judged === 0 && counts.skipped > 0) return "skipped";
  return "pass";
}

/** The exit codes of `eval-simulate eval`, as docs/running-evals.md documents them. */
export const RUN_EXIT: Readonly<Record<RunVerdict, number>> = { pass: 0, skipped: 0, fail: 1, preliminary: 2 };

/**
 * The process exit code for a verdict.
 *
 * @example process.exitCode = exitCodeOf(summary.verdict);
 */
export function exitCodeOf(verdict: RunVerdict): number {
  return RUN_EXIT[verdict];
}
