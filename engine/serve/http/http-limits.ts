import { positiveInteger } from "./env-integer.js";

/** How much the port takes from its clients before it refuses or disconnects them. */
export interface HttpLimits {
  /** Requests handled at once across every connection; past it a request answers 503 with `Retry-After`. 1,024 by default: a host serving hundreds of sessions, each with a few clients, stays under it. */
  maxInFlight: number;
  /** Pipelined requests queued on one connection before the server stops reading from it. 16 by default. */
  maxPipelined: number;
  /**
   * How long a client that has stopped is waited for: the rest of its headers, the next bytes of
   * its body (408 past it), or its reading of an answer (disconnected past it). 30 s by default.
   */
  stallTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this (408 past it). 60 s by default. */
  requestTimeoutMs: number;
}

/** The limits when none are set. */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  maxInFlight: 1024,
  maxPipelined: 16,
  stallTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
});

const VARIABLES: Record<Exclude<keyof HttpLimits, "maxPipelined">, string> = {
  maxInFlight: "EVAL_SIMULATE_MAX_IN_FLIGHT",
  stallTimeoutMs: "EVAL_SIMULATE_STALL_TIMEOUT_MS",
  requestTimeoutMs: "EVAL_SIMULATE_REQUEST_TIMEOUT_MS",
};

/**
 * The limits set in the environment: `EVAL_SIMULATE_MAX_IN_FLIGHT`, `_STALL_TIMEOUT_MS`,
 * `_REQUEST_TIMEOUT_MS`. Throws naming a variable that is not a positive integer.
 *
 * @example httpLimitsFromEnv({ EVAL_SIMULATE_STALL_TIMEOUT_MS: "500" }); // { stallTimeoutMs: 500 }
 */
export function httpLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<HttpLimits> {
  const limits: Partial<HttpLimits> = {};
  for (const [key, variable] of Object.entries(VARIABLES) as Array<[keyof typeof VARIABLES, string]>) {
    const n = positiveInteger(env[variable], variable);
    if (n !== undefined) limits[key] = n;
  }
  return limits;
}

/**
 * The defaults with the given limits over them, each checked.
 *
 * @example resolveHttpLimits({ maxInFlight: 32 }).stallTimeoutMs; // 30000
 */
export function resolveHttpLimits(given: Partial<HttpLimits> = {}): HttpLimits {
  const limits = { ...DEFAULT_HTTP_LIMITS };
  for (const key of Object.keys(limits) as Array<keyof HttpLimits>) {
    const value = given[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1) throw new Error(`[eval-simulate] the HTTP limit ${key} must be a positive integer, not ${String(value)}`);
    limits[key] = value;
  }
  return limits;
}
