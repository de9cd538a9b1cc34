import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";
import { KIND, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.js";
import { type ScriptedProvider, startScriptedProvider } from "../support/scripted-provider.js";

const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const createNote = { name: "create-note", arguments: { parent_object: "companies", parent_record_id: UMBRELLA, title: "Kick-off", content: "Booked." } };

let provider: ScriptedProvider | undefined;
let receiver: OtlpReceiver | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await provider?.close();
  await receiver?.close();
  provider = receiver = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** One model trial (a tool call, then the answer) against the scripted provider, by the CLI. */
async function evalRun(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; line: Record<string, unknown> }> {
  provider = await startScriptedProvider((_request, index) =>
    index === 0 ? { toolCalls: [createNote], usage: { input: 120, output: 30 } } : { text: "Kick-off noted." },
  );
  const { file, dir } = writeEvals(`
  - id: note-on-umbrella
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Log a kick-off note on Umbrella Health.
    maxSteps: 4
    host: { type: model, model: "openai-compatible:qwen3", baseURL: "${provider.baseURL}" }
    expect:
      calls: [{ tool: crm/create-note, arguments: { parent_record_id: ${UMBRELLA} } }]
      answer: { contains: noted }
`);
  dirs.push(dir);
  const out = join(dir, "results.jsonl");
  const { code, stderr } = await runCli(["eval", file, "--out", out], { env: { OTEL_SERVICE_NAME: "runner-under-test", ...env } });
  const line = JSON.parse(readFileSync(out, "utf8").trim().split("\n").at(-1)!) as Record<string, unknown>;
  return { code, stderr, line };
}

const childOf = (spans: ReceivedSpan[], parent: ReceivedSpan, name: string) => spans.filter((s) => s.parentSpanId === parent.spanId && s.name === name);

describe("eval's traces over OTLP", () => {
  it("traces a model trial: the trial, its model requests, the tool call and the fake's answer in one trace", async () => {
    receiver = await startOtlpReceiver();
    const { code, line } = await evalRun({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    expect(code).toBe(0);
    const spans = receiver.spans;
    const trial = spans.find((s) => s.name === "trial note-on-umbrella")!;
    expect(trial).toMatchObject({ parentSpanId: "", kind: KIND.internal, service: "runner-under-test", status: { code: 0 } });
    expect(trial.attributes).toMatchObject({
      "eval_simulate.case.id": "note-on-umbrella",
      "eval_simulate.iteration": 0,
      "eval_simulate.verdict": "pass",
      "eval_simulate.score": 1,
    });
    // The results line names the trace.
    expect(line.traceId).toBe(trial.traceId);
    expect(spans.filter((s) => s.traceId === trial.traceId).length).toBeGreaterThanOrEqual(6);

    const chats = childOf(spans, trial, "chat qwen3");
    expect(chats).toHaveLength(2);
    expect(chats[0]).toMatchObject({ kind: KIND.client });
    expect(chats.map((c) => c.attributes["gen_ai.response.finish_reasons"])).toEqual(expect.arrayContaining([["tool-calls"], ["stop"]]));
    const first = chats.find((c) => c.attributes["gen_ai.usage.input_tokens"] === 120)!;
    expect(first.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "qwen3", "gen_ai.usage.output_tokens": 30 });

    const [execute] = childOf(spans, trial, "execute_tool create-note");
    expect(execute.attributes).toMatchObject({ "gen_ai.tool.name": "create-note", "eval_simulate.fake.id": "crm" });
    const [client] = childOf(spans, execute, "tools/call create-note");
    expect(client).toMatchObject({ kind: KIND.client });
    // The fake's server span continues the client's context, carried in params._meta.traceparent.
    const [served] = childOf(spans, client, "tools/call create-note");
    expect(served).toMatchObject({ kind: KIND.server, traceId: trial.traceId });
    expect(served.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "eval_simulate.fake.id": "crm",
      "eval_simulate.wrote": true,
      "eval_simulate.commit.seq": 1,
    });
    expect(served.attributes["eval_simulate.session.id"]).toBe((line.session as { id: string }).id);
  }, 60_000);

  it("continues the trial's trace into a script's MCP calls and a command agent's TRACEPARENT", async () => {
    receiver = await startOtlpReceiver();
    const { file, dir } = writeEvals(`
  - id: scripted
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    host: { type: script }
    script:
      calls: [{ tool: crm/create-note, arguments: ${JSON.stringify(createNote.arguments)} }]
      answer: noted
    expect:
      calls: [{ tool: crm/create-note }]
  - id: commanded
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: say where you are
    host: { type: command, command: [${JSON.stringify(process.execPath)}, -e, "console.log(process.env.TRACEPARENT)"] }
    expect:
      answer: { contains: "00-" }
`);
    dirs.push(dir);
    const out = join(dir, "results.jsonl");
    const { code } = await runCli(["eval", file, "--out", out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
    expect(code).toBe(0);
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const scripted = lines.find((l) => l.case === "scripted")!;
    const trial = receiver.spans.find((s) => s.name === "trial scripted")!;
    expect(scripted.traceId).toBe(trial.traceId);
    const [served] = childOf(receiver.spans, trial, "tools/call create-note");
    expect(served).toMatchObject({ kind: KIND.server });
    expect(served.attributes).toMatchObject({ "eval_simulate.wrote": true });
    // The command's answer is the TRACEPARENT it was given: the trial span's own.
    const commanded = lines.find((l) => l.case === "commanded")!;
    const commandTrial = receiver.spans.find((s) => s.name === "trial commanded")!;
    expect(commanded.answer).toBe(`00-${commandTrial.traceId}-${commandTrial.spanId}-01`);
  }, 60_000);

  it("traces the trials a worker process runs (--workers)", async () => {
    receiver = await startOtlpReceiver();
    const { file, dir } = writeEvals(`
  - id: in-a-worker
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    iterations: 2
    accuracyThreshold: 1
    host: { type: script }
    script:
      calls: [{ tool: crm/create-note, arguments: ${JSON.stringify(createNote.arguments)} }]
      answer: noted
    expect:
      calls: [{ tool: crm/create-note }]
`);
    dirs.push(dir);
    const out = join(dir, "results.jsonl");
    const { code, stderr } = await runCli(["eval", file, "--out", out, "--workers", "2"], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
    expect(code, stderr).toBe(0);
    const ids = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { traceId?: string }).traceId);
    const trials = receiver.spans.filter((s) => s.name === "trial in-a-worker");
    expect(trials.map((t) => t.traceId).sort()).toEqual([...ids].sort());
    for (const trial of trials) expect(childOf(receiver.spans, trial, "tools/call create-note")).toHaveLength(1);
  }, 60_000);

  it("finishes a run whose collector never answers, its results intact", async () => {
    receiver = await startOtlpReceiver({ blackhole: true });
    const { code, line } = await evalRun({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: "60000" });
    expect(code).toBe(0);
    expect(line).toMatchObject({ status: "pass", traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
  }, 60_000);

  it("finishes a run whose collector is not there at all", async () => {
    const { code, line } = await evalRun({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:9/v1/traces",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
    });
    expect(code).toBe(0);
    expect(line.status).toBe("pass");
  }, 60_000);

  it("puts no trace id on the line and says nothing when tracing is off", async () => {
    const { code, line, stderr } = await evalRun({ OTEL_EXPORTER_OTLP_ENDPOINT: "" });
    expect(code).toBe(0);
    expect(line.status).toBe("pass");
    expect(line).not.toHaveProperty("traceId");
    expect(stderr).not.toMatch(/tracing/);
  }, 60_000);

  it("says why tracing stays off for a protocol it cannot speak", async () => {
    const { code, stderr, line } = await evalRun({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect(code).toBe(0);
    expect(stderr).toMatch(/tracing is off: the OTLP protocol "grpc" is not supported/);
    expect(line).not.toHaveProperty("traceId");
  }, 60_000);
});
