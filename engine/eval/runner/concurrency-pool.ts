/**
 * A bounded pool: at most `concurrency` tasks at once, started in order, stopping the start of
 * new ones as soon as `stop()` is called or the signal aborts (tasks already running finish).
 */

export interface PoolControl {
  /** No further task starts; the ones running finish. */
  stop(): void;
  readonly stopped: boolean;
}

/**
 * Runs `work` over `items` with at most `concurrency` at once; resolves when every started task
 * has settled. A task that throws stops the pool and the error is rethrown after the others
 * settle (the first one, when several throw).
 *
 * @example await runPool(trials, 4, async (trial, _i, pool) => { if (overBudget) pool.stop(); await run(trial); });
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number, pool: PoolControl) => Promise<void>,
  signal?: AbortSignal,
): Promise<{ started: number }> {
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`[eval-simulate] concurrency must be a whole number of at least 1, not ${concurrency}`);
  let next = 0;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  const control: PoolControl = {
    stop: () => void (stopped = true),
    get stopped() {
      return stopped || signal?.aborted === true;
    },
  };
  const lane = async () => {
    while (!control.stopped && next < items.length) {
      const index = next++;
      try {
        await work(items[index], index, control);
      } catch (error) {
        failure ??= { error };
        stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  if (failure) throw failure.error;
  return { started: next };
}
