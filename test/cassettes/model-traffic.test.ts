// One trial's model traffic, in-process: recorded (through a stand-in for the provider's fetch),
// replayed by normalised request, scripted; and how each settles the trial.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openModelTraffic, readCassette, type TrafficInput, writeCassette } from "../../engine/eval/cassettes/index.js";
import type { ModelCall } from "../../engine/serve/models/index.js";

const CLOCK = "2026-10-01T09:00:00.000Z";
const SECRET = "sk-proj-Zq8wLm3vTt9Ys2Kd7Hf4Xb6Nc1Ra5Ue0";
const NO_OUTCOME = { requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), "eval-simulate-traffic-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const chat = (content: string, extra: Record<string, unknown> = {}): ModelCall => ({
  provider: "openai",
  api: "chat",
  endpoint: "chat/completions",
  body: { model: "gpt-x", messages: [{ role: "user", content }], ...extra },
  stream: false,
  headers: new Headers({ authorization: "Bearer eval-simulate-no-key" }),
  signal: new AbortController().signal,
});

const answer = (text: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
});

function input(extra: Partial<TrafficInput> = {}): TrafficInput {
  return {
    caseId: "c",
    iteration: 0,
    models: {},
    cassette: join(dir, "evals.cassettes", "c", "trial-0.json"),
    env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: "http://provider.test/v1" },
    clock: CLOCK,
    ...extra,
  };
}

/** Records `calls`, each answered `reply(call)` by the stand-in provider. */
async function record(calls: ModelCall[], reply: (body: Record<string, unknown>) => unknown = () => answer("Done.")) {
  const sent: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, headers: init.headers as Record<string, string> });
    return Response.json(reply(JSON.parse(String(init.body))));
  }) as typeof globalThis.fetch;
  const traffic = openModelTraffic(input({ mode: "record", fetch }));
  for (const call of calls) await traffic.responder(call);
  return { outcome: traffic.settle(NO_OUTCOME), sent };
}

describe("recording", () => {
  it("sends the runner's key, never the agent's, and keeps each request normalised with its answer", async () => {
    const { outcome, sent } = await record([chat("Close T-101", { temperature: 0 })]);
    expect(outcome).toMatchObject({ requests: 1 });
    expect(outcome.outcome).toBeUndefined();
    expect(sent).toEqual([{ url: "http://provider.test/v1/chat/completions", headers: expect.objectContaining({ authorization: `Bearer ${SECRET}` }) }]);
    const cassette = readCassette(input().cassette!)!;
    expect(cassette.interactions).toEqual([
      {
        request: { api: "openai/chat", body: { messages: [{ content: "Close T-101", role: "user" }], model: "gpt-x", temperature: 0 } },
        response: { status: 200, contentType: "application/json", json: answer("Done.") },
      },
    ]);
  });

  it("keeps no secret in the cassette: not the key, not one in a prompt or an answer", async () => {
    await record([chat(`my key is ${SECRET}`, { api_key: "hunter2" })], () => answer(`use password=hunter2 or ${SECRET}`));
    const text = readFileSync(input().cassette!, "utf8");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("hunter2");
    expect(text).toContain("[REDACTED]");
  });

  it("writes the same bytes for the same traffic, whatever the order of the body's keys", async () => {
    await record([chat("a", { temperature: 0, top_p: 1 })]);
    const first = readFileSync(input().cassette!, "utf8");
    await record([{ ...chat("a"), body: { top_p: 1, messages: [{ content: "a", role: "user" }], temperature: 0, model: "gpt-x" } }]);
    expect(readFileSync(input().cassette!, "utf8")).toBe(first);
  });

  it("makes the trial not run, and writes nothing, without a key", async () => {
    const traffic = openModelTraffic(input({ mode: "record", env: {} }));
    const response = await traffic.responder(chat("a"));
    expect(response.status).toBe(502);
    expect(traffic.settle(NO_OUTCOME).outcome).toEqual({
      status: "not_run",
      reason: "the model request could not be recorded: no API key to record from openai: set OPENAI_API_KEY",
    });
    expect(readCassette(input().cassette!)).toBeUndefined();
  });
});

describe("a recording that cannot be kept", () => {
  it("is refused past the bytes a replay reads, naming the file and its size, and leaves no file", () => {
    const file = join(dir, "evals.cassettes", "c", "trial-0.json");
    const cassette = { version: 1 as const, case: "c", trial: 0, interactions: [] };
    expect(() => writeCassette(file, cassette, 10)).toThrow(
      `[eval-simulate] the cassette ${file} would hold 70 bytes, past the 10 a replay reads; it was not written`,
    );
    expect(readCassette(file)).toBeUndefined();
  });

  it("makes the trial not run, saying why", async () => {
    // The cassettes' folder is a file: the recording has nowhere to go.
    writeFileSync(join(dir, "evals.cassettes"), "");
    const { outcome } = await record([chat("Close T-101")]);
    expect(outcome.outcome).toMatchObject({ status: "not_run", reason: expect.stringMatching(/ENOTDIR|EEXIST/) });
  });
});

describe("replaying", () => {
  it("answers each request from its recording, matched by normalised request whatever ids the agent sends", async () => {
    const toolTurn = (id: string) => ({
      ...chat("Close T-101"),
      body: {
        model: "gpt-x",
        messages: [
          { role: "user", content: "Close T-101" },
          { role: "assistant", tool_calls: [{ id, type: "function", function: { name: "close", arguments: "{}" } }] },
          { role: "tool", tool_call_id: id, content: "closed" },
        ],
      },
    });
    await record([chat("Close T-101"), toolTurn("call_abc")], (body) => answer((body.messages as unknown[]).length === 1 ? "first" : "second"));
    const traffic = openModelTraffic(input({ mode: "replay" }));
    expect(await (await traffic.responder(toolTurn("call_xyz"))).json()).toEqual(answer("second"));
    expect(await (await traffic.responder(chat("Close T-101"))).json()).toEqual(answer("first"));
    expect(traffic.settle(NO_OUTCOME)).toEqual({ ...NO_OUTCOME, requests: 2 });
  });

  // An upper bound for a loaded machine: normalising the whole cassette again for each request took minutes here.
  it("replays a long trial's cassette normalising each recording once, not once per request", { timeout: 30_000 }, async () => {
    const calls = Array.from({ length: 2000 }, (_, i) => chat(`step ${i}`));
    await record(calls, (body) => answer(String((body.messages as Array<{ content: string }>)[0]!.content)));
    const traffic = openModelTraffic(input({ mode: "replay" }));
    for (const [i, call] of calls.entries()) {
      const replied = (await (await traffic.responder(call)).json()) as ReturnType<typeof answer>;
      if (replied.choices[0]!.message.content !== `step ${i}`) throw new Error(`request ${i + 1} got ${JSON.stringify(replied)}`);
    }
    expect(traffic.settle(NO_OUTCOME)).toEqual({ ...NO_OUTCOME, requests: 2000 });
  });

  it("fails the trial on a request no recording matches, with a diff against the nearest", async () => {
    await record([chat("Close T-101"), chat("Then reopen T-102, and tell me about it")]);
    const traffic = openModelTraffic(input({ mode: "replay" }));
    const response = await traffic.responder(chat("Close T-103"));
    expect(response.status).toBe(400);
    const settled = traffic.settle(NO_OUTCOME);
    expect(settled.outcome?.status).toBe("fail");
    expect(settled.outcome?.reason).toContain("model request 1 matches no recording in");
    expect(settled.outcome?.reason).toContain("against the nearest (request 1)");
    expect(settled.outcome?.reason).toMatch(/^- +"content": "Close T-101",$/m);
    expect(settled.outcome?.reason).toMatch(/^\+ +"content": "Close T-103",$/m);
  });

  it("matches under the case's match.ignore: timestamps and tool results", async () => {
    const turn = (at: string, result: string) => ({
      ...chat(""),
      body: {
        model: "gpt-x",
        messages: [
          { role: "user", content: `It is ${at}` },
          { role: "tool", tool_call_id: "c1", content: result },
        ],
      },
    });
    await record([turn("2026-10-01T09:00:00Z", "ticket 1")]);
    const strict = openModelTraffic(input({ mode: "replay" }));
    await strict.responder(turn("2026-10-02T10:30:00Z", "ticket 2"));
    expect(strict.settle(NO_OUTCOME).outcome?.status).toBe("fail");
    const loose = openModelTraffic(input({ mode: "replay", models: { match: { ignore: ["ids", "timestamps", "toolResults"] } } }));
    expect((await loose.responder(turn("2026-10-02T10:30:00Z", "ticket 2"))).status).toBe(200);
    expect(loose.settle(NO_OUTCOME).outcome).toBeUndefined();
  });

  it("makes a trial whose cassette was edited into answers no provider gives not run, naming the file and the interaction", async () => {
    await record([chat("a")]);
    const file = input().cassette!;
    const cassette = JSON.parse(readFileSync(file, "utf8"));
    const tampered = [
      { status: 0, contentType: "application/json", json: {} },
      { status: 200, contentType: 7, json: {} },
      { status: 200, contentType: "text/event-stream", text: { not: "text" } },
      { status: 200, contentType: "text/plain\r\nset-cookie: x=1", text: "hi" },
    ];
    for (const response of tampered) {
      writeFileSync(file, JSON.stringify({ ...cassette, interactions: [{ ...cassette.interactions[0], response }] }));
      const traffic = openModelTraffic(input({ mode: "replay" }));
      expect((await traffic.responder(chat("a"))).status).toBe(503);
      expect(traffic.settle(NO_OUTCOME).outcome).toEqual({
        status: "not_run",
        reason: `the cassette ${file}: interaction 1 has no answer a provider could give (status 200-599, a content type, a JSON or text body); record it again with --record-models`,
      });
    }
  });

  it("makes a trial without a cassette not run, naming the file to record", async () => {
    const traffic = openModelTraffic(input({ mode: "replay" }));
    expect((await traffic.responder(chat("a"))).status).toBe(503);
    expect(traffic.settle(NO_OUTCOME).outcome).toEqual({
      status: "not_run",
      reason: `no cassette for this trial (${input().cassette}): record it with eval --record-models`,
    });
  });
});

describe("scripting", () => {
  it("answers in order, and fails the trial when the agent asks past the script", async () => {
    const traffic = openModelTraffic(input({ models: { script: [{ text: "one" }] } }));
    expect(traffic.mode).toBe("script");
    const first = (await (await traffic.responder(chat("a"))).json()) as { choices: Array<{ message: { content: string } }>; created: number };
    expect(first.choices[0]!.message.content).toBe("one");
    expect(first.created).toBe(Date.parse(CLOCK) / 1000);
    expect((await traffic.responder(chat("b"))).status).toBe(400);
    expect(traffic.settle(NO_OUTCOME).outcome).toEqual({
      status: "fail",
      reason: "the case's models.script has 1 answers, and the agent made model request 2",
    });
  });
});
