import { findStop } from "../../author/handlers/index.js";
import { compileExpression, isTruthy, RunGuard, toPlainJson } from "../../author/handlers/index.js";

/** Each assertion's evaluation gets this long and this deep: a runaway one is a failed check, never a hung judge. */
export const ASSERTION_LIMITS = { timeoutMs: 5_000, maxDepth: 500 } as const;

const STOPPED: Record<string, string> = {
  timeout: `it ran past its ${ASSERTION_LIMITS.timeoutMs / 1000} s limit`,
  depth: `it nested deeper than ${ASSERTION_LIMITS.maxDepth} levels`,
  "too-large": "it built a value too large to hold",
};

/** An expression's value (plain JSON), or why it could not be evaluated. */
export type Evaluated = { ok: true; value: unknown; truthy: boolean } | { ok: false; message: string };

/**
 * Evaluates a user's JSONata expression with the handlers' bounded runtime: caps on sequences
 * and strings, a time and depth limit per evaluation, bounded `$pad`/`$join`/`$sort`.
 *
 * @example await evaluateBounded("$count($final.tickets.tickets) > 0", undefined, { final }) // { ok: true, truthy: true, … }
 */
export async function evaluateBounded(source: string, input: unknown, bindings: Record<string, unknown>): Promise<Evaluated> {
  const compiled = compileExpression(source);
  if (!compiled.ok) return { ok: false, message: `does not compile: ${compiled.error.message}` };
  try {
    const raw = await compiled.expression.evaluate(input, bindings, new RunGuard(ASSERTION_LIMITS));
    return { ok: true, value: raw === undefined ? undefined : toPlainJson(raw), truthy: isTruthy(raw) };
  } catch (error) {
    const stop = findStop(error);
    if (stop) return { ok: false, message: STOPPED[stop.reason] ?? `stopped (${stop.reason})` };
    const e = error as { message?: string };
    return { ok: false, message: e?.message ?? String(error) };
  }
}
