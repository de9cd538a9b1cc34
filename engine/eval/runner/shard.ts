/**
 * `--shard i/n`: a deterministic 1/n of a run's trials, so n machines (a CI matrix, a Kubernetes
 * Indexed Job) each run their own part and the parts' results merge into the run. Trials are
 * ordered by case id (code units, never the locale) and iteration, then dealt round-robin: every
 * machine computes the same split from the same evals file, whatever order its cases are written
 * in, and a case's iterations spread over the shards, so shards differ by one trial at most.
 */

/** One part of a run: the `index`-th (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Reads `i/n` (1 ≤ i ≤ n).
 *
 * @example parseShard("2/3") // { index: 2, count: 3 }
 */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new Error(`[eval-simulate] a shard is i/n with 1 ≤ i ≤ n (--shard 2/3), not "${text}"`);
  }
  return { index, count };
}

/** `i/n`, as results lines record it. */
export const shardLabel = (shard: Shard): string => `${shard.index}/${shard.count}`;

const byCaseAndIteration = (a: { case: string; iteration: number }, b: { case: string; iteration: number }) =>
  a.case < b.case ? -1 : a.case > b.case ? 1 : a.iteration - b.iteration;

/**
 * The trials of one shard, in the order they were given.
 *
 * @example inShard(trials, { index: 1, count: 2 }) // every other trial, by case id and iteration
 */
export function inShard<T extends { case: string; iteration: number }>(trials: readonly T[], shard: Shard): T[] {
  if (shard.count === 1) return [...trials];
  const mine = new Set([...trials].sort(byCaseAndIteration).filter((_trial, position) => position % shard.count === shard.index - 1));
  return trials.filter((trial) => mine.has(trial));
}
