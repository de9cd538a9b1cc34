/**
 * What `eval` and `select` share: the flags both take, defined once so each means the same on
 * both, and the reading of their numbers.
 */
import type { ArgsDef } from "citty";

/** The flags of a model run that `eval` and `select` both take. */
export const RUN_FLAGS = {
  "base-url": { type: "string", description: "With --model: the endpoint (an OpenAI-compatible server for openai-compatible:<model>)" },
  concurrency: { type: "string", default: "4", description: "Trials at once" },
  "budget-usd": { type: "string", description: "Stop before model spend would cross this many US dollars (default EVAL_BUDGET_USD)" },
  fresh: { type: "boolean", description: "Ignore the trials already in --out instead of resuming" },
  variant: {
    type: "string",
    description: "A tool-description variant (variant.yaml): the model is offered its descriptions and input schemas for this run; trial lines record its id",
  },
  "allow-outside": { type: "boolean", description: "Also load a fakes manifest outside the evals file's folder (EVAL_SIMULATE_ALLOW_OUTSIDE=1)" },
  prices: {
    type: "string",
    description:
      'Prices of models the built-in table lacks, for --budget-usd: a JSON file { "provider:model": { "input": n, "output": n } } in dollars per million tokens',
    valueHint: "prices.json",
  },
} as const satisfies ArgsDef;

/** A flag's value a command cannot take: the command writes its message and exits 2. */
export class UsageError extends Error {}

/**
 * A whole-number flag of at least `min`, or `fallback` when it is absent.
 *
 * @example const limit = wholeNumber(parsed.limit, "--limit", 1);
 */
export function wholeNumber<F extends number | undefined = undefined>(value: string | undefined, flag: string, min: number, fallback?: F): number | F {
  if (value === undefined) return fallback as F;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min) throw new UsageError(`${flag} takes a whole number of at least ${min}, not "${value}"`);
  return n;
}
