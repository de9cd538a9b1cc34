/** A handler that ran past its fake's time limit. */
export class HandlerTimeoutError extends Error {
  readonly code = "E_HANDLER_TIMEOUT";
  constructor(what: string, ms: number) {
    super(`[eval-simulate] the handler of ${what} ran past its ${ms} ms limit; nothing was changed`);
    this.name = "HandlerTimeoutError";
  }
}

/**
 * Settles with `work`, or rejects with a HandlerTimeoutError after `ms` and aborts `controller`
 * so the handler can stop. The handler's draft is dropped either way; only a settled result
 * is ever committed.
 *
 * @example await withTimeout(run(), 30_000, controller, "notes/create-note");
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, controller: AbortController, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new HandlerTimeoutError(what, ms);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
