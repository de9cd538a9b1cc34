import { findStop } from "../../author/handlers/index.js";
import { compileExpression, isTruthy, RunGuard, toPlainJson } from "../../author/handlers/index.js";

/** Each assertion's evaluation gets this long and this deep: a runaway one is a failed check, never a hung judge. */
export const ASSERTION_LIMITS = { timeoutMs: 5_000, maxDepth: 500 } as const;

const STOPPED: Record<string, string> = {
  timeout: `it ran past its ${ASSERTION_LIMITS.timeoutMs / 1000} s limit`,
  depth: `it nested deeper than ${ASSERTION_LIMITS.maxDepth} levels`,
  "too-large": "it built a value too large to hold",
};

/** The manifest's shared JSONata functions' sources, by name (its `functions:`). */
export type SharedFunctions = Readonly<Record<string, string>>;

/** An expression's value (plain JSON), or why it could not be evaluated. */
export type Evaluated = { ok: true; value: unknown; truthy: boolean } | { ok: false; message: string };

/**
 * Evaluates a user's JSONata expression with the handlers' bounded runtime: caps on sequences
 * and strings, a time and depth limit per evaluation, bounded `$pad`/`$join`/`$sort`. The
 * manifest's shared `functions` are bound by name first, each closing over the same bindings
 * (so a function reads `$final` as the expression does); a binding of the same name wins.
 *
 * @example await evaluateBounded("$count($final.tickets.tickets) > 0", undefined, { final }) // { ok: true, truthy: true, … }
 */
export async function evaluateBounded(source: string, input: unknown, bindings: Record<string, unknown>, functions: SharedFunctions = {}): Promise<Evaluated> {
  const compiled = compileExpression(source);
  if (!compiled.ok) return { ok: false, message: `does not compile: ${compiled.error.message}` };
  try {
    const guard = new RunGuard(ASSERTION_LIMITS);
    const scope = await withFunctions(bindings, functions, guard);
    const raw = await compiled.expression.evaluate(input, scope, guard);
    return { ok: true, value: raw === undefined ? undefined : toPlainJson(raw), truthy: isTruthy(raw) };
  } catch (error) {
    const stop = findStop(error);
    if (stop) return { ok: false, message: STOPPED[stop.reason] ?? `stopped (${stop.reason})` };
    const e = error as { message?: string };
    return { ok: false, message: e?.message ?? String(error) };
  }
}

/** The bindings with each shared function defined in them; one that does not compile is validate's to report, and is left out. */
async function withFunctions(bindings: Record<string, unknown>, functions: SharedFunctions, guard: RunGuard): Promise<Record<string, unknown>> {
  const names = Object.keys(functions).filter((name) => !Object.hasOwn(bindings, name));
  if (names.length === 0) return bindings;
  const scope = { ...bindings };
  for (const name of names) {
    const fn = compileExpression(functions[name]!);
    if (!fn.ok) continue;
    // Defined, not assigned: a function value must reach jsonata as jsonata made it.
    Object.defineProperty(scope, name, { value: await fn.expression.evaluate(undefined, scope, guard), enumerable: true, writable: true, configurable: true });
  }
  return scope;
}
