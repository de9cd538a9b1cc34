/**
 * Reads a positive integer from an environment variable: undefined when unset or empty, an
 * `[eval-simulate]` error naming the variable when it is anything else.
 *
 * @example positiveInteger(env.EVAL_SIMULATE_JOURNAL_LIMIT, "EVAL_SIMULATE_JOURNAL_LIMIT");
 */
export function positiveInteger(value: string | undefined, variable: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`[eval-simulate] ${variable} must be a positive integer, not "${value}"`);
  return n;
}
