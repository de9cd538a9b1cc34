/**
 * The time limits of one model request, as a fetch the provider packages are given: the whole
 * exchange (sending to the body's last byte) within `requestTimeoutMs`, and once the answer's
 * headers are in, no gap of `idleTimeoutMs` without a byte. Past either, the request fails with a
 * RequestTimeoutError, which the retries count as transient. An endpoint that never answers, or
 * drips a byte a second, cannot hold a run.
 */

/** Per-request limits of a model host. */
export interface RequestLimits {
  /** The whole exchange, from sending to the last byte of the answer (5 minutes). */
  requestTimeoutMs?: number;
  /** The longest silence inside an answer's body, after its headers (60 s). */
  idleTimeoutMs?: number;
}

export const REQUEST_TIMEOUT_MS = 300_000;
export const IDLE_TIMEOUT_MS = 60_000;

/** A model request that ran out of time: transient, retried like a 503. */
export class RequestTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RequestTimeoutError";
  }
}

/**
 * `base` with the request limits; the caller's own `signal` still aborts as it did.
 *
 * @example createOpenAI({ fetch: timedFetch({ requestTimeoutMs: 60_000 }) });
 */
export function timedFetch(limits: RequestLimits = {}, base: typeof fetch = globalThis.fetch): typeof fetch {
  const requestMs = limits.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const idleMs = limits.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  return async (input, init = {}) => {
    const controller = new AbortController();
    const outer = init.signal ?? undefined;
    const onOuter = () => controller.abort(outer?.reason);
    if (outer?.aborted) onOuter();
    else outer?.addEventListener("abort", onOuter, { once: true });
    const expire = (message: string) => controller.abort(new RequestTimeoutError(message));
    // Unref'd: the request's socket keeps the process alive; a body nobody reads must not.
    const whole = setTimeout(() => expire(`the model endpoint did not answer in full within ${requestMs} ms (requestTimeoutMs)`), requestMs).unref();
    let idle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(whole);
      clearTimeout(idle);
      outer?.removeEventListener("abort", onOuter);
    };
    // What the request failed of: our limit when it was ours, else what fetch said.
    const reason = (error: unknown) => (controller.signal.aborted ? controller.signal.reason : error);
    let response: Response;
    try {
      response = await base(input, { ...init, signal: controller.signal });
    } catch (error) {
      done();
      throw reason(error);
    }
    if (response.body === null) {
      done();
      return response;
    }
    const reader = response.body.getReader();
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => expire(`the model endpoint sent no bytes of its answer for ${idleMs} ms (idleTimeoutMs)`), idleMs).unref();
    };
    arm();
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        try {
          const { done: ended, value } = await reader.read();
          if (ended) {
            done();
            stream.close();
            return;
          }
          arm();
          stream.enqueue(value);
        } catch (error) {
          done();
          stream.error(reason(error));
        }
      },
      cancel(why) {
        done();
        return reader.cancel(why);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
