import { afterEach, describe, expect, it } from "vitest";
import {
  endModelRequestSpan,
  endToolCallSpans,
  endTrialSpan,
  modelRequestSpan,
  startTracing,
  stopTracing,
  toolCallSpans,
  trialSpan,
  turnSpan,
} from "../../engine/serve/telemetry/index.js";
import { KIND, type OtlpReceiver, startOtlpReceiver } from "../support/otlp-receiver.js";

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await stopTracing();
  await receiver?.close();
  receiver = undefined;
});

describe("the runner's span helpers", () => {
  it("nest a conversation's turns under the trial, and each turn's requests and tool calls under it", async () => {
    receiver = await startOtlpReceiver();
    await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    const trial = trialSpan({ case: "support-chat", iteration: 2, host: "openai:gpt-5" });
    for (const n of [1, 2]) {
      const turn = turnSpan(trial.traceparent, n, { "eval_simulate.turn.user": "simulated" });
      const chat = modelRequestSpan(turn.traceparent, { provider: "openai", model: "gpt-5" });
      endModelRequestSpan(chat, { inputTokens: 10 * n, outputTokens: n, finishReason: "stop" });
      const tool = toolCallSpans(turn.traceparent, { tool: "search", server: "crm", callId: `call-${n}` });
      endToolCallSpans(tool, { isError: n === 2 });
      turn.end();
    }
    endTrialSpan(trial, { status: "fail", score: 0.5, reason: "a milestone was missed" });
    expect(await stopTracing()).toBe(true);
    const spans = receiver.spans;
    const root = spans.find((s) => s.name === "trial support-chat")!;
    expect(root).toMatchObject({ parentSpanId: "", status: { code: 2, message: "a milestone was missed" } });
    expect(root.attributes).toMatchObject({ "eval_simulate.verdict": "fail", "eval_simulate.score": 0.5, "error.type": "fail" });
    const turns = spans.filter((s) => s.parentSpanId === root.spanId);
    expect(turns.map((t) => t.name).sort()).toEqual(["turn 1", "turn 2"]);
    const second = turns.find((t) => t.name === "turn 2")!;
    const under = spans.filter((s) => s.parentSpanId === second.spanId);
    expect(under.map((s) => s.name).sort()).toEqual(["chat gpt-5", "execute_tool search"]);
    expect(under.find((s) => s.name === "chat gpt-5")).toMatchObject({ kind: KIND.client, attributes: { "gen_ai.usage.input_tokens": 20 } });
    const execute = under.find((s) => s.name === "execute_tool search")!;
    expect(execute.attributes).toMatchObject({ "gen_ai.tool.call.id": "call-2", "error.type": "tool_error" });
    expect(spans.find((s) => s.parentSpanId === execute.spanId)).toMatchObject({ name: "tools/call search", kind: KIND.client });
  });
});
