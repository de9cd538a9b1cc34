import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { UnknownPriceError } from "../../engine/eval/models/pricing.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";
import { type ScriptedProvider, type ScriptedReply, startScriptedProvider } from "../support/scripted-provider.js";

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const noteCase = (host: string, iterations: number, threshold: number) => `
  - id: note-on-umbrella
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Log a kick-off note on Umbrella Health.
    iterations: ${iterations}
    accuracyThreshold: ${threshold}
    maxSteps: 4
    host: ${host}
    expect:
      calls: [{ tool: crm/create-note, arguments: { parent_record_id: ${UMBRELLA} } }]
      exclusive: true
      state: { changed: [crm.notes], only: true }
      answer: { contains: noted }
`;
const createNote = { name: "create-note", arguments: { parent_object: "companies", parent_record_id: UMBRELLA, title: "Kick-off", content: "Booked." } };
const noWait = { sleep: async () => undefined };

describe("eval with a model, against a scripted provider on loopback through the real provider packages", () => {
  it("reports per-case pass rates, pass^k and pass@k over trials that behave differently", async () => {
    // Each trial is two requests (a tool call, then the answer); odd trials call the wrong tool.
    provider = await startScriptedProvider((_request, index) => {
      const trial = Math.floor(index / 2);
      if (index % 2 === 1) return { text: "Kick-off noted." };
      return { toolCalls: [trial % 2 === 0 ? createNote : { name: "list-tasks", arguments: {} }] };
    });
    const { file } = writeEvals(noteCase(`{ type: model, model: "openai-compatible:qwen3", baseURL: "${provider.baseURL}" }`, 4, 0.5));
    const result = await runEvals({ evals: file, concurrency: 1, env: {} });
    expect(result.cases[0]).toMatchObject({
      model: "openai-compatible:qwen3",
      passed: 2,
      failed: 2,
      passRate: 0.5,
      k: 4,
      passHatK: 0,
      passAtK: 1,
      verdict: "pass",
      toolCalls: 4,
    });
    expect(result.cases[0].usage).toEqual({ inputTokens: 800, outputTokens: 160 });
    expect(result).toMatchObject({ verdict: "pass", exitCode: 0, failed: 0 });
    expect(result.lines.every((line) => line.requests === 2 && line.answer === "Kick-off noted.")).toBe(true);
    // The model was offered the fake's tools over MCP, exactly as served.
    const offered = (provider.requests[0].body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(offered).toContain("create-note");
  }, 60_000);

  it("marks a run PRELIMINARY (exit 2) when a trial's requests keep failing, never scoring it, and honours Retry-After", async () => {
    provider = await startScriptedProvider((_request, index) => (index === 0 ? { status: 429, headers: { "retry-after": "3" } } : { status: 503 }));
    const { file } = writeEvals(noteCase(`{ type: model, model: "openai-compatible:qwen3", baseURL: "${provider.baseURL}" }`, 2, 1));
    const waits: number[] = [];
    const result = await runEvals({ evals: file, concurrency: 1, env: {}, retry: { retries: 2, sleep: async (ms) => void waits.push(ms) } });
    expect(waits[0]).toBe(3000);
    expect(result.cases[0]).toMatchObject({ passed: 0, failed: 0, notRun: 2, verdict: "preliminary" });
    expect(result.cases[0].reasons.join("\n")).toMatch(/kept failing \(3 attempts\): HTTP 503/);
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2, failed: 0 });
    expect(provider.requests).toHaveLength(6);
  }, 60_000);

  it("stops the whole run at a fatal error (401) without starting the remaining trials", async () => {
    provider = await startScriptedProvider(() => ({
      status: 401,
      body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
    }));
    const { file } = writeEvals(noteCase(`{ type: model, model: "anthropic:claude-sonnet-4-5", baseURL: "${provider.baseURL}" }`, 5, 1));
    const result = await runEvals({ evals: file, concurrency: 1, env: { ANTHROPIC_API_KEY: "sk-ant-wrong" }, retry: noWait });
    expect(provider.requests).toHaveLength(1);
    expect(result.stopped).toMatch(/HTTP 401/);
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2 });
    expect(result.cases[0].notRun).toBe(5);
  }, 60_000);

  it("stops before the budget would be crossed, counting every request at the model's price", async () => {
    // gpt-4.1 at $2 per million input tokens: each request costs $0.20, each trial $0.40.
    provider = await startScriptedProvider(
      (_request, index): ScriptedReply =>
        index % 2 === 0 ? { toolCalls: [createNote], usage: { input: 100_000, output: 0 } } : { text: "noted", usage: { input: 100_000, output: 0 } },
    );
    const { file } = writeEvals(noteCase(`{ type: model, model: "openai:gpt-4.1", baseURL: "${provider.baseURL}" }`, 4, 1));
    const result = await runEvals({ evals: file, concurrency: 1, budgetUsd: 0.5, env: { OPENAI_API_KEY: "sk-test" } });
    expect(provider.requests).toHaveLength(2);
    expect(result.costUsd).toBeCloseTo(0.4);
    expect(result.costUsd).toBeLessThanOrEqual(0.5);
    expect(result.stopped).toMatch(/budget of \$0.5/);
    expect(result.cases[0]).toMatchObject({ passed: 1, notRun: 3, verdict: "preliminary" });
    expect(result.exitCode).toBe(2);
    // A budget for a model the price table lacks is refused before anything runs.
    const unpriced = writeEvals(noteCase(`{ type: model, model: "openai-compatible:qwen3", baseURL: "${provider.baseURL}" }`, 1, 1));
    await expect(runEvals({ evals: unpriced.file, budgetUsd: 1, env: {} })).rejects.toThrow(UnknownPriceError);
    const priced = await runEvals({ evals: unpriced.file, budgetUsd: 1, env: {}, prices: { "openai-compatible:qwen3": { input: 0.1, output: 0.1 } } });
    expect(priced.costUsd).toBeGreaterThan(0);
  }, 60_000);

  it("takes --prices for a model the price table lacks, so a budget can count it (a real process)", async () => {
    // $1 per million input tokens: each request of 100 000 tokens costs $0.10, the trial $0.20.
    provider = await startScriptedProvider(
      (_request, index): ScriptedReply =>
        index % 2 === 0 ? { toolCalls: [createNote], usage: { input: 100_000, output: 0 } } : { text: "noted", usage: { input: 100_000, output: 0 } },
    );
    const { file, dir } = writeEvals(noteCase(`{ type: model, model: "openai-compatible:qwen3", baseURL: "${provider.baseURL}" }`, 1, 1));
    const unpriced = await runCli(["eval", file, "--budget-usd", "1", "--out", join(dir, "a.ndjson")]);
    expect(unpriced.code).toBe(2);
    expect(unpriced.stderr).toMatch(/a budget needs the price of openai-compatible:qwen3/);
    expect(provider.requests).toHaveLength(0);

    const prices = join(dir, "prices.json");
    writeFileSync(prices, JSON.stringify({ "openai-compatible:qwen3": { input: 1, output: 2 } }));
    const priced = await runCli(["eval", file, "--budget-usd", "1", "--prices", prices, "--format", "json", "--out", join(dir, "b.ndjson")]);
    expect(priced.code).toBe(0);
    expect(JSON.parse(priced.stdout).costUsd).toBeCloseTo(0.2);

    writeFileSync(prices, JSON.stringify({ qwen3: { input: "cheap" } }));
    const bad = await runCli(["eval", file, "--budget-usd", "1", "--prices", prices, "--out", join(dir, "c.ndjson")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"qwen3" is not provider:model; "qwen3" needs \{ "input": n, "output": n \}/);
  }, 60_000);

  it("skips every case and exits 0 without an API key, naming the variable to set (a real process)", async () => {
    const { file } = writeEvals(noteCase(`{ type: model, model: "anthropic:claude-sonnet-4-5" }`, 3, 1));
    const { code, stdout } = await runCli(["eval", file, "--out", `${file}.ndjson`], { env: { ANTHROPIC_API_KEY: "" } });
    expect(code).toBe(0);
    expect(stdout).toContain("ANTHROPIC_API_KEY");
    expect(stdout).toMatch(/SKIPPED\s+note-on-umbrella/);
    expect(stdout).toMatch(/3 skipped/);
  }, 60_000);
});
