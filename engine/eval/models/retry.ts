import { ModelOutputError } from "./model-output.js";
import { classifyError, type ErrorClass } from "./provider-errors.js";

export interface RetryOptions {
  /** Attempts after the first (default 4). */
  retries?: number;
  /** The first back-off (default 1 s), doubled each attempt with jitter, capped at `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Waits; a test passes its own. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Told of each retry, for the report. */
  onRetry?: (attempt: number, error: ErrorClass, delayMs: number) => void;
}

/** A request that kept failing transiently, or failed fatally: the run decides which it is. */
export class ModelRequestError extends Error {
  constructor(
    readonly classification: ErrorClass,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(
      `[eval-simulate] the model request failed (${classification.kind}, after ${attempts} attempt${attempts === 1 ? "" : "s"}): ${classification.message}`,
      options,
    );
    this.name = "ModelRequestError";
  }
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/**
 * Runs a model request, retrying transient failures with exponential back-off (honouring the
 * provider's Retry-After when it gives one); a fatal failure is thrown at once. Throws a
 * ModelRequestError carrying the classification (a ModelOutputError passes through as it is).
 *
 * @example const result = await withRetries(() => generateText({ ...request, maxRetries: 0 }));
 */
export async function withRetries<T>(request: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const retries = options.retries ?? 4;
  const base = options.baseDelayMs ?? 1000;
  const max = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? wait;
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      // The model's own answer: asking again is not a retry of a failed request.
      if (error instanceof ModelOutputError) throw error;
      const classification = classifyError(error);
      if (classification.kind === "fatal" || attempt > retries || options.signal?.aborted)
        throw new ModelRequestError(classification, attempt, { cause: error });
      const backoff = Math.min(max, base * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
      const delay = classification.retryAfterMs ?? backoff;
      options.onRetry?.(attempt, classification, delay);
      await sleep(delay, options.signal);
    }
  }
}
