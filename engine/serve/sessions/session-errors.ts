/**
 * The process holds as many sessions as it may: a 429 naming the limit.
 *
 * @example try { await services.createSession(); } catch (e) { if (e instanceof SessionLimitError) e.limit; }
 */
export class SessionLimitError extends Error {
  override name = "SessionLimitError";
  constructor(readonly limit: number) {
    super(
      `[eval-simulate] the host holds its limit of ${limit} sessions (maxSessions, EVAL_SIMULATE_MAX_SESSIONS): delete finished sessions or raise the limit`,
    );
  }
}

/**
 * No session has this id (never created, deleted, or expired): a 404 naming it.
 *
 * @example session.reset(); // throws UnknownSessionError once the session has been closed
 */
export class UnknownSessionError extends Error {
  override name = "UnknownSessionError";
  constructor(readonly id: string) {
    super(`[eval-simulate] no session "${id}": it was never created, was deleted, or expired after its idle TTL`);
  }
}

/** A session's options the host cannot take (a bad id, seed, TTL or clock; an id in use): a 400 or 409. */
export class SessionOptionsError extends Error {
  override name = "SessionOptionsError";
  constructor(
    message: string,
    readonly status: 400 | 409 = 400,
  ) {
    super(`[eval-simulate] ${message}`);
  }
}
