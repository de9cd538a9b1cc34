import { describe, expect, it } from "vitest";
import { DEFAULT_HTTP_LIMITS, resolveHttpLimits } from "../../engine/serve/http/http-limits.js";
import { sidecarOptions } from "../../engine/serve/host/sidecar.js";

describe("the port's limits", () => {
  it("reads EVAL_SIMULATE_MAX_IN_FLIGHT, _STALL_TIMEOUT_MS and _REQUEST_TIMEOUT_MS, explicit options winning", () => {
    const env = { EVAL_SIMULATE_MAX_IN_FLIGHT: "32", EVAL_SIMULATE_STALL_TIMEOUT_MS: "500", EVAL_SIMULATE_REQUEST_TIMEOUT_MS: "5000" };
    expect(sidecarOptions(env).http).toEqual({ maxInFlight: 32, stallTimeoutMs: 500, requestTimeoutMs: 5000 });
    expect(sidecarOptions(env, { http: { stallTimeoutMs: 200 } }).http).toMatchObject({ maxInFlight: 32, stallTimeoutMs: 200 });
    expect(sidecarOptions({}).http).toEqual({});
  });

  it("refuses a limit that is not a positive integer, naming it", () => {
    expect(() => sidecarOptions({ EVAL_SIMULATE_STALL_TIMEOUT_MS: "soon" })).toThrow('EVAL_SIMULATE_STALL_TIMEOUT_MS must be a positive integer, not "soon"');
    expect(() => sidecarOptions({ EVAL_SIMULATE_MAX_IN_FLIGHT: "0" })).toThrow("EVAL_SIMULATE_MAX_IN_FLIGHT");
    expect(() => resolveHttpLimits({ maxPipelined: 1.5 })).toThrow("maxPipelined must be a positive integer");
  });

  it("falls back to the documented defaults", () => {
    expect(resolveHttpLimits()).toEqual(DEFAULT_HTTP_LIMITS);
    expect(DEFAULT_HTTP_LIMITS).toEqual({ maxInFlight: 1024, maxPipelined: 16, stallTimeoutMs: 30_000, requestTimeoutMs: 60_000 });
  });
});
