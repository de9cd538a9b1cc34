import { afterEach, describe, expect, it, vi } from "vitest";
import { AdaptiveLimit, type Ticket } from "../../engine/eval/models/adaptive-limit.js";
import { parseProviderLimits, ProviderLimits } from "../../engine/eval/models/request-gate.js";
import { progressLine } from "../../engine/eval/runner/progress-bar.js";
import { type RunProgress, runEvals } from "../../engine/eval/runner/run-evals.js";
import { writeEvals } from "../support/evals-files.js";
import { type ScriptedProvider, type ScriptedReply, startScriptedProvider } from "../support/scripted-provider.js";

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await provider?.close();
  provider = undefined;
});

/** Whether a promise has settled yet, after the microtasks queued so far. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const createNote = { name: "create-note", arguments: { parent_object: "companies", parent_record_id: UMBRELLA, title: "Kick-off", content: "Booked." } };
/** Each trial: a tool call, then the answer. */
const agent = (request: { toolResults: string[] }): ScriptedReply =>
  request.toolResults.length === 0 ? { toolCalls: [createNote] } : { text: "Kick-off noted." };
const noteCases = (baseURL: string, iterations: number) =>
  writeEvals(`
  - id: note-on-umbrella
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Log a kick-off note on Umbrella Health.
    iterations: ${iterations}
    accuracyThreshold: 1
    maxSteps: 4
    host: { type: model, model: "openai-compatible:qwen3", baseURL: "${baseURL}" }
    expect:
      calls: [{ tool: crm/create-note, arguments: { parent_record_id: ${UMBRELLA} } }]
      answer: { contains: noted }
`).file;

describe("a provider's adaptive limit", () => {
  it("grants at most its limit at once, in the order asked", async () => {
    const limit = new AdaptiveLimit("anthropic", 2);
    const first = await limit.acquire();
    await limit.acquire();
    const third = limit.acquire();
    const fourth = limit.acquire();
    expect(await settled(third)).toBe(false);
    expect(limit.status()).toMatchObject({ inFlight: 2, waiting: 2, limit: 2 });
    limit.release(first);
    expect(await settled(third)).toBe(true);
    expect(await settled(fourth)).toBe(false);
  });

  it("halves on 429s once per round of requests, never below one, and creeps back up by one per round of successes", async () => {
    const limit = new AdaptiveLimit("openai", 8);
    const round = await Promise.all(Array.from({ length: 8 }, () => limit.acquire()));
    // Eight requests in flight all answered 429: they tell of one cap, halved once.
    for (const ticket of round) limit.release(ticket, { rateLimited: true });
    expect(limit.status()).toMatchObject({ limit: 4, lowest: 4, rateLimited: 8, inFlight: 0 });
    for (const expected of [2, 1, 1]) limit.release(await limit.acquire(), { rateLimited: true }), expect(limit.limit).toBe(expected);
    const limits: number[] = [];
    for (let i = 0; i < 40; i++) {
      limit.release(await limit.acquire());
      limits.push(limit.limit);
    }
    // 1 success to reach 2, 2 more to reach 3, …: one per round of the cap's size, up to the configured 8.
    expect(limits.slice(0, 6)).toEqual([2, 2, 3, 3, 3, 4]);
    expect(Math.max(...limits)).toBe(8);
    expect(limits.at(-1)).toBe(8);
    expect(limit.status()).toMatchObject({ lowest: 1, max: 8 });
  });

  it("pauses every request to the provider until a Retry-After has passed", async () => {
    vi.useFakeTimers();
    const limit = new AdaptiveLimit("anthropic", 4);
    const ticket = await limit.acquire();
    limit.release(ticket, { rateLimited: true, retryAfterMs: 1000 });
    const next = limit.acquire();
    expect(await settled(next)).toBe(false);
    expect(limit.status().pausedMs).toBe(1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(next)).toBe(true);
  });

  it("drops a waiter whose request was aborted, and counts a ticket released twice once", async () => {
    const limit = new AdaptiveLimit("google", 1);
    const held: Ticket = await limit.acquire();
    const controller = new AbortController();
    const aborted = limit.acquire(controller.signal);
    const after = limit.acquire();
    controller.abort(new Error("trial over"));
    await expect(aborted).rejects.toThrow("trial over");
    limit.release(held);
    limit.release(held);
    expect(await settled(after)).toBe(true);
    expect(limit.status()).toMatchObject({ inFlight: 1, waiting: 0 });
  });

  it("reads --provider-limit and refuses unknown providers and non-numbers", () => {
    expect(parseProviderLimits("anthropic=8,openai=16")).toEqual({ anthropic: 8, openai: 16 });
    expect(parseProviderLimits(" openai-compatible = 2 ")).toEqual({ "openai-compatible": 2 });
    expect(() => parseProviderLimits("antropic=8")).toThrow(/no provider "antropic" to limit; the providers: anthropic, openai, google, openai-compatible/);
    for (const bad of ["anthropic=0", "anthropic=x", "anthropic", "=8", ""])
      expect(() => parseProviderLimits(bad), bad).toThrow(/^\[eval-simulate\] a provider limit is provider=n/);
  });

  it("shows each limited provider in the progress line, with the cap 429s lowered", () => {
    const gate = new ProviderLimits({ anthropic: 8, openai: 16 });
    expect(progressLine({ done: 3, total: 10, passed: 2, spentUsd: 0.5, limits: gate.statuses() }, 10)).toBe(
      "[###.......] 3/10 trials, 2 passed, $0.5000 spent; anthropic 0/8, openai 0/16",
    );
    const low = { provider: "anthropic", inFlight: 3, limit: 4, max: 8, lowest: 2, rateLimited: 5, waiting: 6, pausedMs: 1500 };
    expect(progressLine({ done: 0, total: 1, passed: 0, spentUsd: 0, limits: [low] }, 4)).toBe(
      "[....] 0/1 trials, 0 passed, $0.0000 spent; anthropic 3/4 (cut from 8 by 429s), paused 2s",
    );
  });
});

describe("--provider-limit against a scripted provider", () => {
  it("keeps a provider's requests in flight under its limit across every worker", async () => {
    provider = await startScriptedProvider(agent, { delayMs: 100 });
    const file = noteCases(provider.baseURL, 8);
    const result = await runEvals({ evals: file, concurrency: 8, workers: 2, providerLimits: { "openai-compatible": 2 }, env: { ...process.env } });
    expect(result).toMatchObject({ verdict: "pass", trials: { passed: 8 } });
    expect(provider.requests).toHaveLength(16);
    expect(provider.maxInFlight).toBeLessThanOrEqual(2);
    expect(result.limits).toEqual([expect.objectContaining({ provider: "openai-compatible", limit: 2, max: 2, rateLimited: 0, inFlight: 0 })]);
  }, 120_000);

  it("lowers the limit when the provider answers 429, honours its Retry-After, and creeps back up once it stops", async () => {
    // A provider that takes one request at a time: a second one at once is answered 429, until six have been.
    let refused = 0;
    provider = await startScriptedProvider(
      (request) => {
        if (provider!.inFlight > 1 && refused < 6)
          return (refused++, { status: 429, headers: { "retry-after-ms": "30" }, body: { error: { message: "rate limited", type: "rate_limit" } } });
        return agent(request);
      },
      { delayMs: 20 },
    );
    const file = noteCases(provider.baseURL, 12);
    const seen: RunProgress[] = [];
    const result = await runEvals({
      evals: file,
      concurrency: 4,
      providerLimits: { "openai-compatible": 4 },
      retry: { retries: 10 },
      env: {},
      onProgress: (p) => seen.push(p),
    });
    expect(refused).toBe(6);
    expect(result).toMatchObject({ verdict: "pass", trials: { passed: 12, notRun: 0 } });
    const [status] = result.limits!;
    expect(status).toMatchObject({ provider: "openai-compatible", rateLimited: 6, max: 4, limit: 4 });
    expect(status!.lowest).toBeLessThan(4);
    expect(seen.some((p) => p.limits!.some((l) => l.limit < 4))).toBe(true);
    expect(result.notes.join("\n")).toMatch(/openai-compatible: 6 requests answered 429; the limit went down to \d of 4 \(now 4\)/);
  }, 120_000);
});
