// The diff a user reads when a replayed request matches no recording: bounded whatever the
// requests' sizes, and the distance that picks the nearest recording.
import { describe, expect, it } from "vitest";
import { distance, normaliseRequest, requestDiff } from "../../engine/eval/cassettes/index.js";

const request = (messages: string[]) =>
  normaliseRequest({ provider: "openai", api: "chat", body: { model: "m", messages: messages.map((content) => ({ role: "user", content })) } });

describe("requestDiff", () => {
  it("shows the changed line, recorded then sent, with a little context", () => {
    const diff = requestDiff(request(["a", "b", "c"]), request(["a", "B", "c"]));
    const lines = diff.split("\n");
    expect(lines.filter((l) => l.startsWith("- "))).toEqual(['-         "content": "b",']);
    expect(lines.filter((l) => l.startsWith("+ "))).toEqual(['+         "content": "B",']);
    expect(lines[0]).toBe("  …");
  });

  it("stays within 60 lines, counting the rest, for requests of thousands of messages", () => {
    const many = Array.from({ length: 5000 }, (_, i) => `message ${i}`);
    const diff = requestDiff(request(many), request(many.map((m) => `${m}!`)));
    const lines = diff.split("\n");
    expect(lines).toHaveLength(61);
    expect(lines.at(-1)).toMatch(/^ {2}… \d+ more lines$/);
  });
});

describe("distance", () => {
  it("is 0 for the same request and grows with what differs", () => {
    const base = request(["a", "b"]);
    expect(distance(base, request(["a", "b"]))).toBe(0);
    expect(distance(base, request(["a", "c"]))).toBeLessThan(distance(base, request(["x", "y"])));
  });
});

describe("normaliseRequest", () => {
  it("sorts keys, numbers ids by first use, and redacts secrets", () => {
    const normalised = normaliseRequest({
      provider: "anthropic",
      api: "messages",
      body: { z: 1, messages: [{ content: [{ type: "tool_result", tool_use_id: "toolu_X", content: "token=abc123secret" }] }], a: 2 },
    });
    expect(JSON.stringify(normalised)).toBe(
      '{"api":"anthropic/messages","body":{"a":2,"messages":[{"content":[{"content":"token=[REDACTED]","tool_use_id":"<id 1>","type":"tool_result"}]}],"z":1}}',
    );
  });
});
