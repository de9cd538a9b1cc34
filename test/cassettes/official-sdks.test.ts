// The model endpoints as the providers' official SDKs read them: OpenAI's `openai` (chat
// completions and responses) given OPENAI_BASE_URL's value, Anthropic's `@anthropic-ai/sdk` given
// ANTHROPIC_BASE_URL's (no `/v1`: the SDK adds it, as Claude Code does), whole and streamed.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services, Session } from "../../engine/serve/host/index.js";
import { type ModelBaseUrls, modelBaseUrls, scriptedAnswer } from "../../engine/serve/models/index.js";
import { serve } from "../support/services.js";

let services: Services;
let session: Session;
let urls: ModelBaseUrls;

beforeAll(async () => {
  services = await serve(undefined, { sessionsOnly: true });
  session = await services.createSession({ secret: true });
  urls = modelBaseUrls(services.origin, session.address);
  let n = 0;
  services.models.serve(session.id, async (call) => {
    const answer = JSON.stringify(call.body).includes("close it")
      ? { text: "Let me.", toolCalls: [{ name: "close_ticket", arguments: { id: "T-101" } }] }
      : { text: "Hello there." };
    return scriptedAnswer(call.api, answer, { n: ++n, model: String(call.body.model), created: 0, stream: call.stream, includeUsage: true });
  });
});

afterAll(async () => {
  await services?.close();
});

const tools = [{ type: "function" as const, function: { name: "close_ticket", parameters: { type: "object", properties: { id: { type: "string" } } } } }];

describe("OpenAI's SDK", () => {
  const client = () => new OpenAI({ baseURL: urls.openai, apiKey: "eval-simulate-no-key", maxRetries: 0 });

  it("reads a chat completion, and its stream", async () => {
    const whole = await client().chat.completions.create({ model: "gpt-x", messages: [{ role: "user", content: "close it" }], tools });
    expect(whole.choices[0]!.message.tool_calls?.[0]).toMatchObject({ type: "function", function: { name: "close_ticket", arguments: '{"id":"T-101"}' } });
    expect(whole.choices[0]!.finish_reason).toBe("tool_calls");
    const stream = client().chat.completions.stream({
      model: "gpt-x",
      messages: [{ role: "user", content: "close it" }],
      tools,
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe("Let me.");
    expect(final.choices[0]!.message.tool_calls?.[0]).toMatchObject({ function: { name: "close_ticket", arguments: '{"id":"T-101"}' } });
    expect(final.usage?.total_tokens).toBe(15);
  });

  it("reads a response, and its stream of events", async () => {
    const whole = await client().responses.create({ model: "gpt-x", input: "hi" });
    expect(whole.output_text).toBe("Hello there.");
    const events: string[] = [];
    const stream = client().responses.stream({ model: "gpt-x", input: "close it" });
    for await (const event of stream) events.push(event.type);
    const final = await stream.finalResponse();
    expect(final.output_text).toBe("Let me.");
    expect(final.output.find((item) => item.type === "function_call")).toMatchObject({ name: "close_ticket", arguments: '{"id":"T-101"}' });
    expect(events[0]).toBe("response.created");
    expect(events.at(-1)).toBe("response.completed");
  });
});

describe("Anthropic's SDK", () => {
  const client = () => new Anthropic({ baseURL: urls.anthropic, apiKey: "eval-simulate-no-key", maxRetries: 0 });
  const anthropicTools = [{ name: "close_ticket", input_schema: { type: "object" as const, properties: { id: { type: "string" } } } }];

  it("reads a message, and its stream of events", async () => {
    const whole = await client().messages.create({ model: "claude-x", max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    expect(whole.content).toEqual([{ type: "text", text: "Hello there." }]);
    expect(whole.stop_reason).toBe("end_turn");
    const stream = client().messages.stream({ model: "claude-x", max_tokens: 100, messages: [{ role: "user", content: "close it" }], tools: anthropicTools });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([
      { type: "text", text: "Let me." },
      { type: "tool_use", id: expect.any(String), name: "close_ticket", input: { id: "T-101" } },
    ]);
    expect(final.stop_reason).toBe("tool_use");
    expect(final.usage.output_tokens).toBe(5);
  });
});
