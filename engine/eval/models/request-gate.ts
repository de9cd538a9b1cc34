/**
 * `--provider-limit anthropic=8,openai=16`: every model request of a run waits for a permit of
 * its provider, so the requests in flight stay under each provider's cap across every trial
 * (and, through the parent process, every worker). The caps adapt to 429s (adaptive-limit.ts).
 */
import { AdaptiveLimit, type LimitStatus, type RequestOutcome } from "./adaptive-limit.js";
import { PROVIDER_PACKAGES } from "./model-spec.js";
import { classifyError } from "./provider-errors.js";

/** A permit for one request. */
export interface Permit {
  /** Frees it, telling how the request ended. */
  release(outcome?: RequestOutcome): void;
}

/** Where a request waits for its permit: the run's limits, or (in a worker) the parent's. */
export interface RequestGate {
  acquire(provider: string, signal?: AbortSignal): Promise<Permit>;
}

const FREE: Permit = { release: () => undefined };

/**
 * Reads `provider=n,provider=n` (the providers of `provider:model`).
 *
 * @example parseProviderLimits("anthropic=8,openai=16") // { anthropic: 8, openai: 16 }
 */
export function parseProviderLimits(text: string): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const match = /^([a-z-]+)\s*=\s*(\d+)$/.exec(part);
    const n = Number(match?.[2]);
    if (!match || !Number.isSafeInteger(n) || n < 1)
      throw new Error(`[eval-simulate] a provider limit is provider=n with n ≥ 1 (anthropic=8,openai=16), not "${part}"`);
    if (!Object.hasOwn(PROVIDER_PACKAGES, match[1]))
      throw new Error(`[eval-simulate] no provider "${match[1]}" to limit; the providers: ${Object.keys(PROVIDER_PACKAGES).join(", ")}`);
    limits[match[1]] = n;
  }
  if (Object.keys(limits).length === 0) throw new Error(`[eval-simulate] a provider limit is provider=n with n ≥ 1 (anthropic=8,openai=16), not "${text}"`);
  return limits;
}

/** Each limited provider's cap; other providers' requests pass at once. */
export class ProviderLimits implements RequestGate {
  private readonly limits = new Map<string, AdaptiveLimit>();

  /**
   * @example const gate = new ProviderLimits({ anthropic: 8 }, () => bar.update(progress()));
   */
  constructor(limits: Readonly<Record<string, number>>, onChange?: () => void) {
    for (const [provider, max] of Object.entries(limits)) this.limits.set(provider, new AdaptiveLimit(provider, max, onChange));
  }

  async acquire(provider: string, signal?: AbortSignal): Promise<Permit> {
    const limit = this.limits.get(provider);
    if (!limit) return FREE;
    const ticket = await limit.acquire(signal);
    return { release: (outcome) => limit.release(ticket, outcome) };
  }

  /** Every limited provider's state. */
  statuses(): LimitStatus[] {
    return [...this.limits.values()].map((limit) => limit.status());
  }
}

/**
 * One request attempt within its provider's limit: the permit taken before it starts, released
 * when its answer or error comes, a 429 (and its Retry-After) told to the limit.
 *
 * @example await gatedRequest(gate, "anthropic", () => doGenerate(), signal);
 */
export async function gatedRequest<T>(gate: RequestGate | undefined, provider: string, request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!gate) return request();
  const permit = await gate.acquire(provider, signal);
  let result: T;
  try {
    result = await request();
  } catch (error) {
    const classification = classifyError(error);
    permit.release({
      rateLimited: classification.rateLimited === true,
      ...(classification.retryAfterMs !== undefined ? { retryAfterMs: classification.retryAfterMs } : {}),
    });
    throw error;
  }
  permit.release();
  return result;
}

/**
 * The limits as the progress line shows them: `anthropic 6/8`, with the cap when 429s lowered it.
 *
 * @example limitsText(gate.statuses()) // "anthropic 3/4 (cut from 8 by 429s)"
 */
export function limitsText(statuses: readonly LimitStatus[]): string {
  return statuses
    .map(
      (s) =>
        `${s.provider} ${s.inFlight}/${s.limit}${s.limit < s.max ? ` (cut from ${s.max} by 429s)` : ""}${s.pausedMs > 0 ? `, paused ${Math.ceil(s.pausedMs / 1000)}s` : ""}`,
    )
    .join(", ");
}
