import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";
import { KIND, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.js";
import { type ScriptedProvider, startScriptedProvider } from "../support/scripted-provider.js";

// A conversation trial's trace: one `turn N` span per turn under the trial's, each turn's calls under it.
const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const NOTE = { parent_object: "companies", parent_record_id: UMBRELLA, title: "Kick-off", content: "Booked." };
const SEARCH = { object: "companies", query: "Umbrella" };

let provider: ScriptedProvider | undefined;
let receiver: OtlpReceiver | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await provider?.close();
  await receiver?.close();
  provider = receiver = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const childOf = (spans: ReceivedSpan[], parent: ReceivedSpan, name: string) => spans.filter((s) => s.parentSpanId === parent.spanId && s.name === name);

async function evalTraced(cases: string): Promise<{ spans: ReceivedSpan[]; line: Record<string, unknown> }> {
  receiver = await startOtlpReceiver();
  const { file, dir } = writeEvals(cases);
  dirs.push(dir);
  const out = join(dir, "results.jsonl");
  const { code, stderr } = await runCli(["eval", file, "--out", out], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
  expect(code, stderr).toBe(0);
  const line = JSON.parse(readFileSync(out, "utf8").trim().split("\n").at(-1)!) as Record<string, unknown>;
  return { spans: receiver.spans, line };
}

/** The trial's span and its `turn N` children, in turn order; exactly one per turn. */
function turnsOf(spans: ReceivedSpan[], id: string, count: number): { trial: ReceivedSpan; turns: ReceivedSpan[] } {
  const trial = spans.find((s) => s.name === `trial ${id}`)!;
  expect(trial).toBeDefined();
  const turns = Array.from({ length: count }, (_, i) => childOf(spans, trial, `turn ${i + 1}`));
  expect(turns.map((t) => t.length)).toEqual(Array(count).fill(1));
  expect(spans.filter((s) => /^turn \d+$/.test(s.name) && s.traceId === trial.traceId)).toHaveLength(count);
  for (const [i, [turn]] of turns.entries()) expect(turn).toMatchObject({ kind: KIND.internal, attributes: { "eval_simulate.turn": i + 1 } });
  return { trial, turns: turns.map(([t]) => t!) };
}

describe("a conversation trial's trace", () => {
  it("puts a scripted conversation's tool calls under the turn that made them", async () => {
    const { spans, line } = await evalTraced(`
  - id: talk
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Add a kick-off note.
    host: { type: script }
    turns:
      - calls: [{ tool: crm/search-records, arguments: ${JSON.stringify(SEARCH)} }]
        answer: Which company?
      - user: Umbrella.
        calls: [{ tool: crm/create-note, arguments: ${JSON.stringify(NOTE)} }]
        answer: Added.
    expect:
      turns: { exact: 2 }
      calls: [{ tool: crm/create-note }]
`);
    expect(line.status).toBe("pass");
    const { trial, turns } = turnsOf(spans, "talk", 2);
    expect(childOf(spans, turns[0]!, "tools/call search-records")).toHaveLength(1);
    expect(childOf(spans, turns[0]!, "tools/call create-note")).toHaveLength(0);
    const [served] = childOf(spans, turns[1]!, "tools/call create-note");
    expect(served).toMatchObject({ kind: KIND.server, traceId: trial.traceId, attributes: { "eval_simulate.wrote": true } });
    // Nothing the turns did hangs from the trial directly.
    expect(childOf(spans, trial, "tools/call create-note")).toHaveLength(0);
  }, 60_000);

  it("puts a model agent's requests and tool calls under each turn", async () => {
    provider = await startScriptedProvider((_request, index) =>
      index === 0
        ? { text: "Which company?" }
        : index === 1
          ? { toolCalls: [{ name: "create-note", arguments: NOTE }], usage: { input: 100, output: 20 } }
          : { text: "Added." },
    );
    const { spans, line } = await evalTraced(`
  - id: modelled
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Add a kick-off note.
    maxSteps: 4
    host: { type: model, model: "openai-compatible:qwen3", baseURL: "${provider.baseURL}" }
    turns:
      - {}
      - user: Umbrella.
    expect:
      turns: { exact: 2 }
      calls: [{ tool: crm/create-note }]
`);
    expect(line.status).toBe("pass");
    const { trial, turns } = turnsOf(spans, "modelled", 2);
    expect(childOf(spans, turns[0]!, "chat qwen3")).toHaveLength(1);
    expect(childOf(spans, turns[0]!, "execute_tool create-note")).toHaveLength(0);
    expect(childOf(spans, turns[1]!, "chat qwen3")).toHaveLength(2);
    const [execute] = childOf(spans, turns[1]!, "execute_tool create-note");
    expect(execute).toMatchObject({ traceId: trial.traceId });
    const [client] = childOf(spans, execute!, "tools/call create-note");
    expect(childOf(spans, client!, "tools/call create-note")).toHaveLength(1);
    expect(childOf(spans, trial, "chat qwen3")).toHaveLength(0);
  }, 60_000);
});
