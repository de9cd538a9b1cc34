import { describe, expect, it } from "vitest";
import { answerText, callsOf, messagesOf } from "../../viewer/transcript.js";
import { worldAtCommit } from "../../viewer/world-at-commit.js";

const record = [
  { server: "crm", tool: "search-records", args: { query: "Acme" }, result: { content: [{ type: "text", text: '{"total":1}' }] } },
  {
    server: "crm",
    tool: "update-record",
    args: { stage: "won" },
    result: { content: [{ type: "text", text: "ok" }] },
    commit: 1,
    changes: { deals: { key: "id", updated: [{ id: "d1", stage: "won" }] } },
  },
  { server: "crm", tool: "create-note", args: {}, result: { isError: true, content: [{ type: "text", text: "no title" }] } },
  {
    server: "crm",
    tool: "create-note",
    args: { title: "t" },
    result: {},
    commit: 2,
    changes: {
      notes: { key: "id", added: [{ id: "n1", title: "t" }] },
      deals: { key: "id", removed: ["d1"] },
      counter: [{ op: "replace", path: "", value: 2 }],
    },
  },
];

describe("a trial's transcript", () => {
  it("is rebuilt from the record and the answer when the line has no transcript, calls numbered as the judge numbers them", () => {
    const messages = messagesOf({ session: { record }, answer: "Done." });
    expect(
      messages.map((m) =>
        m.role === "tool"
          ? `${m.call.seq} ${m.call.name}${m.call.isError ? " error" : ""}${m.call.commit ? ` commit ${m.call.commit}` : ""}`
          : `${m.role}: ${m.text}`,
      ),
    ).toEqual(["1 search-records", "2 update-record commit 1", "3 create-note error", "4 create-note commit 2", "assistant: Done."]);
  });

  it("interleaves user, agent and tool messages from the line's transcript, each tool message matched to its recorded call", () => {
    const transcript = [
      { turn: 0, role: "user", content: "Find Acme", by: "user" },
      { turn: 0, role: "assistant", toolCalls: [{ id: "c1", name: "search-records", args: { query: "Acme" } }] },
      { turn: 0, role: "tool", toolCallId: "c1", name: "search-records", result: { total: 1 } },
      { turn: 0, role: "assistant", toolCalls: [{ id: "c2", name: "update-record", args: {} }] },
      { turn: 0, role: "tool", toolCallId: "c2", name: "update-record", result: "ok", commit: 1 },
      { turn: 1, role: "assistant", content: "Won." },
    ];
    const messages = messagesOf({ transcript, session: { record } });
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);
    expect(messages[1]).toMatchObject({ role: "assistant", text: '→ search-records({"query":"Acme"})' });
    expect(messages[4]).toMatchObject({ role: "tool", call: { seq: 2, server: "crm", name: "update-record", commit: 1, args: { stage: "won" } } });
    expect(messages[0]).toMatchObject({ by: "user", turn: 0 });
  });

  it("reads a tool's answer as the agent did: text blocks, JSON indented, and JSON-RPC errors", () => {
    expect(answerText({ content: [{ type: "text", text: '{"a":1}' }, { type: "image" }] })).toBe('{\n  "a": 1\n}\n[image]');
    expect(answerText({ error: { code: -32602, message: "bad" } })).toBe("error -32602: bad");
    expect(callsOf([{ api: "gh", operation: "GET /x", request: {}, response: { status: 404 } }])[0]).toMatchObject({
      server: "gh",
      name: "GET /x",
      isError: true,
    });
  });
});

describe("the world at a commit", () => {
  it("folds each commit's changes up to the one chosen", () => {
    const calls = callsOf(record);
    expect(worldAtCommit(calls, 1)).toEqual([
      { fake: "crm", entity: "deals", records: [{ key: "d1", status: "updated", value: { id: "d1", stage: "won" }, commit: 1 }], operations: [] },
    ]);
    const last = worldAtCommit(calls);
    expect(last.map((e) => [e.entity, e.records.map((r) => `${r.key} ${r.status} #${r.commit}`), e.operations.length])).toEqual([
      ["deals", ["d1 removed #2"], 0],
      ["notes", ["n1 added #2"], 0],
      ["counter", [], 1],
    ]);
  });
});
