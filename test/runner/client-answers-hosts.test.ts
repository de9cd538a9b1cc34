/**
 * The seams of a fake's questions with the hosts: the model host answers sampling with the
 * agent's own model (on the trial's bill), a conversation's model user answers an elicitation,
 * and a scripted conversation's `client:` answers are one queue across its turns.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { copyRecipe } from "../support/evals-files.js";
import { type ScriptedProvider, type ScriptedRequest, startScriptedProvider } from "../support/scripted-provider.js";

let provider: ScriptedProvider | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function evalsFile(cases: string): string {
  const dir = copyRecipe("conformance");
  dirs.push(dir);
  const file = join(dir, "evals.yaml");
  writeFileSync(file, `version: 1\nfakes: fakes.yaml\ncases:\n${cases}`);
  return file;
}

type Line = { status: string; requests?: number; usage?: { inputTokens: number; outputTokens: number }; transcript?: unknown; session?: { record: unknown } };
const texts = (line: Line) => (line.session!.record as Array<{ result: { content: Array<{ text: string }> } }>).map((l) => l.result.content[0].text);
const hasTools = (request: ScriptedRequest) => Array.isArray(request.body.tools) && (request.body.tools as unknown[]).length > 0;
const lastText = (request: ScriptedRequest) => JSON.stringify((request.body.messages as unknown[] | undefined)?.at(-1) ?? "");

describe("a fake's sampling under the model host", () => {
  it("is answered by the agent's own model, its request and tokens counted on the trial", async () => {
    provider = await startScriptedProvider((request) => {
      if (!hasTools(request)) return { text: "Sampled hi.", usage: { input: 7, output: 3 } };
      return request.toolResults.length === 0
        ? { toolCalls: [{ name: "test_sampling", arguments: { prompt: "Say hi" } }], usage: { input: 100, output: 10 } }
        : { text: "Done.", usage: { input: 100, output: 10 } };
    });
    const file = evalsFile(`
  - id: samples
    prompt: Try sampling.
    host: { type: model, model: "openai-compatible:agent", baseURL: "${provider.baseURL}" }
    expect:
      calls: [{ tool: test_sampling }]
`);
    const result = await runEvals({ evals: file, retry: { retries: 0 } });
    const line = result.lines[0] as unknown as Line;
    expect(line.status).toBe("pass");
    expect(texts(line)).toEqual(["LLM response: Sampled hi."]);
    // The sampling request reached the provider with the fake's prompt and no tools.
    const sampling = provider.requests.filter((r) => !hasTools(r));
    expect(sampling).toHaveLength(1);
    expect(lastText(sampling[0]!)).toContain("Say hi");
    expect(line.requests).toBe(3);
    expect(line.usage).toEqual({ inputTokens: 207, outputTokens: 23 });
  }, 120_000);

  it("takes the case's scripted client.sampling reply over the model", async () => {
    provider = await startScriptedProvider((request) =>
      !hasTools(request)
        ? { text: "from the model" }
        : request.toolResults.length === 0
          ? { toolCalls: [{ name: "test_sampling", arguments: { prompt: "Say hi" } }] }
          : { text: "Done." },
    );
    const file = evalsFile(`
  - id: scripted-sampling
    prompt: Try sampling.
    client: { sampling: [Scripted hi.] }
    host: { type: model, model: "openai-compatible:agent", baseURL: "${provider.baseURL}" }
    expect: {}
`);
    const result = await runEvals({ evals: file, retry: { retries: 0 } });
    expect(texts(result.lines[0] as unknown as Line)).toEqual(["LLM response: Scripted hi."]);
    expect(provider.requests.filter((r) => !hasTools(r))).toHaveLength(0);
  }, 120_000);
});

describe("a fake's elicitation in a conversation", () => {
  it("is answered by the model user, its reply read as the form, and the exchange is in the transcript", async () => {
    provider = await startScriptedProvider((request) => {
      if (request.api === "anthropic")
        return lastText(request).includes("Requested schema") ? { text: '{"username":"ada","email":"ada@example.com"}' } : { text: "###STOP###" };
      return request.toolResults.length === 0
        ? { toolCalls: [{ name: "test_elicitation", arguments: { message: "Who are you?" } }] }
        : { text: "Thanks, ada." };
    });
    const file = evalsFile(`
  - id: asks-the-user
    prompt: Sign me up.
    user: { instructions: "You are Ada, ada@example.com.", model: "anthropic:claude-haiku-4-5" }
    host: { type: model, model: "openai-compatible:agent", baseURL: "${provider.baseURL}" }
    expect:
      calls: [{ tool: test_elicitation }]
      transcript: [{ name: the form came back, jsonata: "$transcript[role = 'tool'].exchanges[0].answer.action = 'accept'" }]
`);
    const result = await runEvals({ evals: file, env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: provider.baseURL }, retry: { retries: 0 } });
    const line = result.lines[0] as unknown as Line;
    expect(texts(line)).toEqual(['User response: action=accept, content={"username":"ada","email":"ada@example.com"}']);
    expect(line.status).toBe("pass");
    // The simulator was asked the fake's question, with the form it wants.
    const asked = provider.requests.find((r) => r.api === "anthropic" && lastText(r).includes("Requested schema"))!;
    expect(lastText(asked)).toContain("Who are you?");
    expect(lastText(asked)).toContain("username");
  }, 120_000);

  it("takes the case's client: answers over the user, in turn across a model agent's turns", async () => {
    provider = await startScriptedProvider((request) => {
      const turn = (request.body.messages as Array<{ role: string }>).filter((m) => m.role === "user").length;
      return request.toolResults.length < turn
        ? { toolCalls: [{ name: "test_elicitation", arguments: { message: `Who, turn ${turn}?` } }] }
        : { text: "Noted." };
    });
    const file = evalsFile(`
  - id: scripted-model-talk
    prompt: Sign me up.
    host: { type: model, model: "openai-compatible:agent", baseURL: "${provider.baseURL}" }
    client:
      elicitation: [{ action: accept, content: { username: ada, email: ada@example.com } }, { action: cancel }]
    turns:
      - {}
      - user: Ask me again.
    expect:
      turns: { exact: 2 }
`);
    const result = await runEvals({ evals: file, retry: { retries: 0 } });
    expect(texts(result.lines[0] as unknown as Line)).toEqual([
      'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      "User response: action=cancel, content={}",
    ]);
  }, 120_000);

  it("takes a scripted conversation's client: answers in turn across its turns", async () => {
    const file = evalsFile(`
  - id: scripted-talk
    prompt: Sign me up.
    host: { type: script }
    client:
      elicitation: [{ action: accept, content: { username: ada, email: ada@example.com } }, { action: cancel }]
    turns:
      - calls: [{ tool: conformance/test_elicitation, arguments: { message: Who are you? } }]
        answer: Anything else?
      - user: Ask me again.
        calls: [{ tool: conformance/test_elicitation, arguments: { message: Again? } }]
        answer: Done.
    expect:
      turns: { exact: 2 }
`);
    const result = await runEvals({ evals: file });
    expect(texts(result.lines[0] as unknown as Line)).toEqual([
      'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      "User response: action=cancel, content={}",
    ]);
  }, 120_000);
});
