import { afterEach, describe, expect, it } from "vitest";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { startServices, type Services } from "../../engine/serve/host/start-services.js";
import { languageModel } from "../../engine/eval/models/language-model.js";
import { runModelAgent } from "../../engine/eval/models/model-agent.js";
import { missingKey, parseModel } from "../../engine/eval/models/model-spec.js";
import { Budget, UnknownPriceError } from "../../engine/eval/models/pricing.js";
import { classifyError, retryAfter } from "../../engine/eval/models/provider-errors.js";
import { RequestTimeoutError } from "../../engine/eval/models/timed-fetch.js";
import { ModelRequestError } from "../../engine/eval/models/retry.js";
import { selectTools } from "../../engine/eval/models/tool-selection.js";
import { type ScriptedProvider, startScriptedProvider } from "../support/scripted-provider.js";
import { ROOT } from "../support/examples.js";

const CLOCK = "2026-10-01T09:00:00.000Z";
let provider: ScriptedProvider | undefined;
let services: Services | undefined;

afterEach(async () => {
  await provider?.close();
  await services?.close();
  provider = undefined;
  services = undefined;
});

async function crm(): Promise<Services> {
  const { fakes, world } = await loadFakes(`${ROOT}examples/crm/fakes.yaml`, { clock: CLOCK });
  services = await startServices(fakes, { world, clock: CLOCK });
  return services;
}

const noWait = { sleep: async () => undefined };

describe("the model layer against a scripted provider on loopback, through the real provider packages", () => {
  it.each([
    ["openai-compatible", "openai-compatible:qwen3", {} as NodeJS.ProcessEnv],
    ["openai", "openai:gpt-4.1", { OPENAI_API_KEY: "sk-test" }],
    ["anthropic", "anthropic:claude-sonnet-4-5", { ANTHROPIC_API_KEY: "sk-ant-test" }],
  ] as const)("runs an agent loop with %s: tools over MCP change the fake's world, the answer is the last message", async (_name, id, env) => {
    const running = await crm();
    const before = (running.states.crm as { companies: unknown[] }).companies.length;
    provider = await startScriptedProvider((request, index) => {
      if (index === 0) return { toolCalls: [{ name: "create-record", arguments: { object: "companies", values: { name: "Umbrella" } } }] };
      // The tool's answer came back to the model as the fake wrote it.
      expect(request.toolResults.at(-1)).toContain("Umbrella");
      return { text: "Created Umbrella." };
    });
    const spec = parseModel(id, provider.baseURL);
    const model = await languageModel(spec, env, noWait);
    const run = await runModelAgent({ model, prompt: "Add the company Umbrella.", servers: running.mcpServers() });
    expect(run.finalText).toBe("Created Umbrella.");
    expect(run.finish).toBe("stop");
    expect(run.requests).toBe(2);
    expect(run.usage).toEqual({ inputTokens: 200, outputTokens: 40 });
    expect(run.toolCalls).toEqual([{ tool: "create-record", server: "crm", arguments: { object: "companies", values: { name: "Umbrella" } }, isError: false }]);
    expect((running.states.crm as { companies: unknown[] }).companies.length).toBe(before + 1);
    // The model was offered the tools exactly as captured.
    const offered = provider.requests[0].body.tools as Array<Record<string, any>>;
    const names = offered.map((tool) => tool.function?.name ?? tool.name);
    expect(names).toContain("search-records");
    expect(running.calls("crm").map((call) => call.name)).toEqual(["create-record"]);
  });

  it("shows the model a tool error as an error, and goes on", async () => {
    const running = await crm();
    provider = await startScriptedProvider((request, index) =>
      index === 0
        ? { toolCalls: [{ name: "get-record", arguments: { object: "deals", record_id: "00000000-0000-4000-8000-000000000000" } }] }
        : { text: `saw: ${request.toolResults.at(-1)}` },
    );
    const model = await languageModel(parseModel("openai-compatible:qwen3", provider.baseURL), {}, noWait);
    const run = await runModelAgent({ model, prompt: "Get deal nope", servers: running.mcpServers() });
    expect(run.toolCalls[0].isError).toBe(true);
    expect(run.finalText).toMatch(/^saw: .*was not found/);
  });

  it("retries a 429 honouring Retry-After, and a 500, then succeeds", async () => {
    provider = await startScriptedProvider((_request, index) =>
      index === 0 ? { status: 429, headers: { "retry-after": "3" } } : index === 1 ? { status: 500 } : { toolCalls: [{ name: "list-objects", arguments: {} }] },
    );
    const waits: number[] = [];
    const model = await languageModel(
      parseModel("openai-compatible:qwen3", provider.baseURL),
      {},
      { sleep: async (ms) => void waits.push(ms), baseDelayMs: 10 },
    );
    const selection = await selectTools({
      model,
      query: "what objects are there?",
      catalog: [{ name: "list-objects", description: "Lists objects", inputSchema: { type: "object" } }],
    });
    expect(selection.tools).toEqual(["list-objects"]);
    expect(provider.requests).toHaveLength(3);
    expect(waits[0]).toBe(3000);
    expect(waits[1]).toBeLessThan(100);
  });

  it("stops at once on a fatal error (401), and gives up on a request that keeps failing as transient", async () => {
    provider = await startScriptedProvider(() => ({ status: 401, body: { error: { message: "invalid api key" } } }));
    let model = await languageModel(parseModel("openai-compatible:qwen3", provider.baseURL), {}, noWait);
    const fatal = await selectTools({ model, query: "q", catalog: [{ name: "a", inputSchema: { type: "object" } }] }).catch((e) => e);
    expect(fatal).toBeInstanceOf(ModelRequestError);
    expect(fatal.classification.kind).toBe("fatal");
    expect(provider.requests).toHaveLength(1);
    await provider.close();

    provider = await startScriptedProvider(() => ({ status: 503 }));
    model = await languageModel(parseModel("openai-compatible:qwen3", provider.baseURL), {}, { ...noWait, retries: 2 });
    const transient = await selectTools({ model, query: "q", catalog: [{ name: "a", inputSchema: { type: "object" } }] }).catch((e) => e);
    expect(transient.classification.kind).toBe("transient");
    expect(transient.attempts).toBe(3);
  });

  it("forces a tool call for selection, one turn, nothing executed", async () => {
    provider = await startScriptedProvider(() => ({
      toolCalls: [
        { name: "b", arguments: {} },
        { name: "a", arguments: {} },
      ],
    }));
    const model = await languageModel(parseModel("anthropic:claude-sonnet-4-5", provider.baseURL), { ANTHROPIC_API_KEY: "k" }, noWait);
    const selection = await selectTools({
      model,
      query: "q",
      catalog: [
        { name: "a", inputSchema: { type: "object" } },
        { name: "b", inputSchema: { type: "object" } },
      ],
    });
    expect(selection.tools).toEqual(["b", "a"]);
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0].body.tool_choice).toEqual({ type: "any" });
  });

  it("stops the loop before the budget would be crossed", async () => {
    const running = await crm();
    provider = await startScriptedProvider(() => ({ toolCalls: [{ name: "list-objects", arguments: {} }], usage: { input: 100_000, output: 10_000 } }));
    const model = await languageModel(parseModel("anthropic:claude-sonnet-4-5", provider.baseURL), { ANTHROPIC_API_KEY: "k" }, noWait);
    // Each request costs 0.3 + 0.15 = $0.45: after two ($0.90) a third would cross $1.
    const budget = new Budget(1, "anthropic:claude-sonnet-4-5");
    const run = await runModelAgent({ model, prompt: "loop", servers: running.mcpServers(), maxSteps: 10, budget });
    expect(run.finish).toBe("budget");
    expect(run.requests).toBe(2);
    expect(budget.spentUsd).toBeCloseTo(0.9, 6);
    expect(() => new Budget(1, "openai-compatible:qwen3")).toThrow(UnknownPriceError);
  });
});

describe("model specs, keys and error classes", () => {
  it("reads provider:model and names the key variable a run lacks", () => {
    expect(parseModel("anthropic:claude-sonnet-4-5")).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(() => parseModel("claude")).toThrow(/<provider>:<model>/);
    expect(() => parseModel("openai-compatible:qwen3")).toThrow(/baseURL/);
    expect(missingKey(parseModel("openai:gpt-4.1"), {})).toBe("OPENAI_API_KEY");
    expect(missingKey(parseModel("openai:gpt-4.1"), { OPENAI_API_KEY: "x" })).toBeUndefined();
    expect(missingKey(parseModel("openai-compatible:qwen3", "http://localhost:11434/v1"), {})).toBeUndefined();
  });

  it("classifies statuses, quota, and network failures", () => {
    expect(classifyError({ statusCode: 429, responseHeaders: { "Retry-After": "7" }, message: "slow down" })).toMatchObject({
      kind: "transient",
      retryAfterMs: 7000,
    });
    expect(classifyError({ statusCode: 529, message: "overloaded" }).kind).toBe("transient");
    expect(classifyError({ statusCode: 429, responseBody: '{"error":{"code":"insufficient_quota"}}', message: "quota" }).kind).toBe("fatal");
    expect(classifyError({ statusCode: 404, message: "model not found" }).kind).toBe("fatal");
    expect(classifyError(Object.assign(new Error("socket"), { code: "ECONNRESET" })).kind).toBe("transient");
  });

  it("classifies a successful answer whose body stalled or was cut off as transient, and one that is not JSON as fatal", () => {
    // The AI SDK wraps a failure reading a 200's body in an APICallError with status 200.
    const reading = (cause: unknown) => ({ statusCode: 200, message: "Failed to process successful response", cause });
    const bodyTimeout = Object.assign(new TypeError("terminated"), { cause: Object.assign(new Error("Body Timeout Error"), { code: "UND_ERR_BODY_TIMEOUT" }) });
    expect(classifyError(reading(bodyTimeout)).kind).toBe("transient");
    expect(classifyError(reading(new TypeError("terminated"))).kind).toBe("transient");
    expect(classifyError(reading(new RequestTimeoutError("no bytes for 60000 ms")))).toMatchObject({ kind: "transient", message: "no bytes for 60000 ms" });
    expect(classifyError(reading(new SyntaxError("Unexpected token <"))).kind).toBe("fatal");
    expect(retryAfter({ "retry-after-ms": "250" })).toBe(250);
    expect(retryAfter({ "retry-after": new Date(Date.now() + 5000).toUTCString() })).toBeGreaterThan(3000);
  });
});
