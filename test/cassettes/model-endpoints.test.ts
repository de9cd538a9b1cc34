// The model endpoints on the fakes' port, as the AI SDK's provider packages speak to them:
// scripted answers (text, then a tool call) in OpenAI's chat completions and responses and
// Anthropic's messages, whole and streamed, read by the real clients; and a session's endpoints
// reachable only at its own secret address, only while it serves them.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services, Session } from "../../engine/serve/host/index.js";
import { modelBaseUrls, scriptedAnswer } from "../../engine/serve/models/index.js";
import { serve } from "../support/services.js";

let services: Services;
let session: Session;
const seen: Array<{ api: string; stream: boolean; auth: string | null }> = [];

beforeAll(async () => {
  services = await serve(undefined, { sessionsOnly: true });
  session = await services.createSession({ secret: true });
  let n = 0;
  services.models.serve(session.id, async (call) => {
    seen.push({ api: call.api, stream: call.stream, auth: call.headers.get("authorization") ?? call.headers.get("x-api-key") });
    // A request with no tool result yet is asked for one; then it is answered.
    const answered = JSON.stringify(call.body).includes("T-101 is open");
    const answer = answered ? { text: "T-101 is open." } : { toolCalls: [{ name: "get-ticket", arguments: { id: "T-101" } }] };
    return scriptedAnswer(call.api, answer, { n: ++n, model: String(call.body.model), created: 0, stream: call.stream, includeUsage: true });
  });
});

afterAll(async () => {
  await services?.close();
});

const tools = {
  "get-ticket": tool({
    description: "Reads a ticket.",
    inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
    execute: async ({ id }) => `${id} is open`,
  }),
};

function models() {
  const urls = modelBaseUrls(services.origin, session.address);
  const openai = createOpenAI({ baseURL: urls.openai, apiKey: "dummy" });
  const anthropic = createAnthropic({ baseURL: `${urls.anthropic}/v1`, apiKey: "dummy" });
  return { responses: openai("gpt-x"), chat: openai.chat("gpt-x"), messages: anthropic("claude-x") };
}

describe("scripted answers read by the AI SDK's clients", () => {
  for (const api of ["chat", "responses", "messages"] as const) {
    it(`${api}: a tool call, then text, in one answer each`, async () => {
      const result = await generateText({ model: models()[api], prompt: "Is T-101 open?", tools, maxRetries: 0 });
      expect(result.steps).toHaveLength(1);
      expect(result.toolCalls.map((c) => [c.toolName, c.input])).toEqual([["get-ticket", { id: "T-101" }]]);
      const next = await generateText({ model: models()[api], prompt: "Is T-101 open? (T-101 is open)", maxRetries: 0 });
      expect(next.text).toBe("T-101 is open.");
      expect(next.usage.inputTokens).toBe(10);
    });

    it(`${api}: a tool call and its answer, streamed`, async () => {
      const result = streamText({ model: models()[api], prompt: "Is T-101 open?", tools, stopWhen: ({ steps }) => steps.length >= 2, maxRetries: 0 });
      expect(await result.text).toBe("T-101 is open.");
      const steps = await result.steps;
      expect(steps[0]!.toolCalls.map((c) => [c.toolName, c.input])).toEqual([["get-ticket", { id: "T-101" }]]);
      expect(steps[0]!.finishReason).toBe("tool-calls");
      expect(steps[1]!.finishReason).toBe("stop");
      expect(seen.filter((s) => s.api === api && s.stream)).toHaveLength(2);
    });
  }
});

describe("a conversation larger than a fake's request", () => {
  // An agent's request carries its whole history: past the port's 1 MiB, within the model endpoints' 8 MiB.
  const history = (mib: number) => `${"The ticket log so far. ".repeat((mib * 1024 * 1024) / 23)} T-101 is open.`;

  for (const api of ["chat", "messages"] as const) {
    it(`${api}: a 3 MiB request is answered, and one past 8 MiB is refused in the provider's own error`, async () => {
      const answered = await generateText({ model: models()[api], prompt: history(3), maxRetries: 0 });
      expect(answered.text).toBe("T-101 is open.");
      const refused = await generateText({ model: models()[api], prompt: history(9), maxRetries: 0 }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ statusCode: 413 });
      // The provider's SDK found the message where its provider puts one.
      expect((refused as Error).message).toBe("Payload Too Large: Request body must not exceed 8388608 bytes");
    });
  }
});

describe("a session's model endpoints", () => {
  it("answer only at the session's secret address", async () => {
    const body = JSON.stringify({ model: "gpt-x", messages: [{ role: "user", content: "hi" }] });
    const guessed = await fetch(`${services.origin}/s/${session.id}/models/openai/v1/chat/completions`, { method: "POST", body });
    expect(guessed.status).toBe(404);
    const own = await fetch(`${modelBaseUrls(services.origin, session.address).openai}/chat/completions`, { method: "POST", body });
    expect(own.status).toBe(200);
    const unsessioned = await fetch(`${services.origin}/models/openai/v1/chat/completions`, { method: "POST", body });
    expect(unsessioned.status).toBe(404);
  });

  it("answer 404 in the provider's error shape for a session that serves none, and for an unknown endpoint", async () => {
    const other = await services.createSession({ secret: true });
    const urls = modelBaseUrls(services.origin, other.address);
    const none = await fetch(`${urls.anthropic}/v1/messages`, { method: "POST", body: "{}" });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ type: "error", error: { type: "not_found_error", message: expect.stringContaining("its case asks for none") } });
    const unknown = await fetch(`${modelBaseUrls(services.origin, session.address).openai}/embeddings`, { method: "POST", body: "{}" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { message: expect.stringContaining("/models/openai/v1/embeddings") } });
    await other.close();
  });

  it("refuses a body that is not a JSON object in the provider's shape", async () => {
    const bad = await fetch(`${modelBaseUrls(services.origin, session.address).openai}/chat/completions`, { method: "POST", body: "[1]" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { type: "invalid_request_error" } });
  });
});
