/**
 * One provider's requests in flight, capped, with the cap adapting to the provider's answers
 * (AIMD, as TCP's congestion window and Inspect's adaptive connections): a 429 halves it, at
 * most once per round of requests (those already in flight when it was halved do not halve it
 * again); each success adds 1/limit, so a full round of successes adds one, up to the
 * configured most. A Retry-After pauses every request to the provider until it has passed.
 */

/** What the progress line and the report show of a provider's limit. */
export interface LimitStatus {
  provider: string;
  inFlight: number;
  /** The current cap, and the configured one it creeps back up to. */
  limit: number;
  max: number;
  /** The lowest the cap went, and the requests the provider answered 429. */
  lowest: number;
  rateLimited: number;
  /** Requests waiting for a permit. */
  waiting: number;
  /** Milliseconds left of a Retry-After pause (0 when none). */
  pausedMs: number;
}

/** How a request ended, as the limit adapts to it. */
export interface RequestOutcome {
  /** The provider answered 429. */
  rateLimited?: boolean;
  /** How long it asked to wait. */
  retryAfterMs?: number;
}

/** A permit for one request: released once, when its answer (or error) came. */
export interface Ticket {
  readonly seq: number;
}

interface Waiter {
  grant(ticket: Ticket): void;
}

/** The cap and the queue of one provider. */
export class AdaptiveLimit {
  private current: number;
  private inFlight = 0;
  private issued = 0;
  private decreasedAt = 0;
  private lowest: number;
  private rateLimited = 0;
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly queue: Waiter[] = [];
  private readonly open = new Set<number>();

  /**
   * @example const limit = new AdaptiveLimit("anthropic", 8, () => bar.redraw());
   */
  constructor(
    readonly provider: string,
    readonly max: number,
    private readonly onChange: () => void = () => undefined,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`[eval-simulate] a provider limit is a whole number of at least 1, not ${max}`);
    this.current = max;
    this.lowest = max;
  }

  /** The cap as a whole number of requests. */
  get limit(): number {
    return Math.floor(this.current);
  }

  /**
   * Waits for a permit (in the order asked); rejects with the signal's reason when it aborts first.
   *
   * @example const ticket = await limit.acquire(signal); try { await request(); limit.release(ticket); } catch { … }
   */
  acquire(signal?: AbortSignal): Promise<Ticket> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Ticket>((resolve, reject) => {
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter = { grant: (ticket) => (signal?.removeEventListener("abort", onAbort), resolve(ticket)) };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** Frees a permit and adapts the cap to how its request ended. A ticket released twice counts once. */
  release(ticket: Ticket, outcome: RequestOutcome = {}): void {
    if (!this.open.delete(ticket.seq)) return;
    this.inFlight--;
    const before = this.limit;
    const pausedBefore = this.pausedUntil;
    if (outcome.rateLimited) {
      this.rateLimited++;
      // Requests that were already in flight when the cap was halved tell of the old cap.
      if (ticket.seq > this.decreasedAt) {
        this.current = Math.max(1, Math.floor(this.current / 2));
        this.decreasedAt = this.issued;
        this.lowest = Math.min(this.lowest, this.limit);
      }
      if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > 0) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + outcome.retryAfterMs);
    } else if (ticket.seq > this.decreasedAt && this.current < this.max) {
      this.current = Math.min(this.max, this.current + 1 / this.limit);
    }
    if (this.limit !== before || this.pausedUntil !== pausedBefore) this.onChange();
    this.pump();
  }

  /** The limit as the progress line shows it. */
  status(): LimitStatus {
    return {
      provider: this.provider,
      inFlight: this.inFlight,
      limit: this.limit,
      max: this.max,
      lowest: this.lowest,
      rateLimited: this.rateLimited,
      waiting: this.queue.length,
      pausedMs: Math.max(0, this.pausedUntil - Date.now()),
    };
  }

  private pump(): void {
    const wait = this.pausedUntil - Date.now();
    if (wait > 0) {
      if (this.queue.length > 0 && this.timer === undefined) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.onChange();
          this.pump();
        }, wait);
      }
      return;
    }
    while (this.queue.length > 0 && this.inFlight < this.limit) {
      const waiter = this.queue.shift()!;
      this.inFlight++;
      const ticket = { seq: ++this.issued };
      this.open.add(ticket.seq);
      waiter.grant(ticket);
    }
  }
}
