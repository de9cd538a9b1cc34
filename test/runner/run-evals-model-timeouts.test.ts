import { afterEach, describe, expect, it } from "vitest";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { writeEvals } from "../support/evals-files.js";
import { type ScriptedProvider, type ScriptedReply, startScriptedProvider } from "../support/scripted-provider.js";

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

// Each test's limit is far below what a stalled endpoint would hold a run without time limits
// (for ever): the run must end by the limits the case sets.
const answerCase = (limits: string, iterations = 1) => `
  - id: answer-only
    scenario: quiet
    prompt: Say noted.
    iterations: ${iterations}
    accuracyThreshold: 1
    maxSteps: 2
    host: { type: model, model: "openai-compatible:qwen3", baseURL: "${provider!.baseURL}", ${limits} }
    expect:
      answer: { contains: noted }
`;
const once = { retries: 1, sleep: async () => undefined };

async function run(script: (index: number) => ScriptedReply, limits: string, iterations = 1) {
  provider = await startScriptedProvider((_request, index) => script(index));
  const { file } = writeEvals(answerCase(limits, iterations));
  return runEvals({ evals: file, concurrency: 1, env: {}, retry: once });
}

describe("a model host's time limits, against stalled endpoints on loopback", () => {
  it("retries a request the endpoint never answers past requestTimeoutMs, then counts the trial not run (PRELIMINARY, exit 2)", async () => {
    const result = await run(() => ({ stall: "silent" }), "requestTimeoutMs: 1000");
    expect(provider!.requests).toHaveLength(2);
    expect(result.lines[0].status).toBe("not_run");
    expect(result.lines[0].reason).toMatch(/kept failing \(2 attempts\): .*1000 ms/);
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2, failed: 0 });
    expect(result.stopped).toBeUndefined();
  }, 20_000);

  it("cuts an answer that drips a byte a second at requestTimeoutMs, as a transient failure that is retried", async () => {
    const result = await run(() => ({ stall: "drip" }), "requestTimeoutMs: 2500");
    expect(provider!.requests).toHaveLength(2);
    expect(result.lines[0]).toMatchObject({ status: "not_run" });
    expect(result.lines[0].reason).toMatch(/kept failing \(2 attempts\): .*2500 ms/);
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2 });
  }, 20_000);

  it("cuts an answer whose body stops coming for idleTimeoutMs, as a transient failure that is retried", async () => {
    const result = await run(() => ({ stall: "idle" }), "idleTimeoutMs: 1000");
    expect(provider!.requests).toHaveLength(2);
    expect(result.lines[0].reason).toMatch(/kept failing \(2 attempts\): .*no bytes .*1000 ms/);
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2 });
  }, 20_000);

  it("judges the trial when the retry after a stalled request is answered", async () => {
    const result = await run((index) => (index === 0 ? { stall: "drip" } : { text: "noted." }), "requestTimeoutMs: 1500");
    expect(provider!.requests).toHaveLength(2);
    expect(result.lines[0]).toMatchObject({ status: "pass", answer: "noted." });
    expect(result).toMatchObject({ verdict: "pass", exitCode: 0 });
  }, 20_000);

  it("stops a trial at its timeoutMs and counts it not run, and the run goes on to the next trial", async () => {
    const result = await run(() => ({ stall: "silent" }), "timeoutMs: 1500", 2);
    expect(provider!.requests).toHaveLength(2);
    expect(result.lines.map((line) => line.status)).toEqual(["not_run", "not_run"]);
    expect(result.lines[0].reason).toContain("did not finish within 1500 ms");
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2 });
    expect(result.stopped).toBeUndefined();
  }, 20_000);
});
