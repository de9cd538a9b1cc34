import { describe, expect, it } from "vitest";
import { checkEvals } from "../../engine/judge/evals/load-evals.js";
import { judgeConversation, transcriptMessages, turnsOf } from "../../engine/judge/evals/conversation-checks.js";
import { writeEvals } from "../support/evals-files.js";

const TRANSCRIPT = [
  { turn: 1, role: "user", content: "Add a note." },
  { turn: 1, role: "assistant", content: "Which company?" },
  { turn: 2, role: "user", content: "Umbrella." },
  { turn: 2, role: "assistant", toolCalls: [{ id: "call-1", name: "crm/create-note", args: {} }], by: "agent" },
  { turn: 2, role: "tool", toolCallId: "call-1", name: "crm/create-note", result: {}, isError: false, commit: 1, by: "agent" },
  { turn: 2, role: "assistant", content: "Added." },
];

describe("judging a conversation's transcript", () => {
  it("counts turns by the messages' turn numbers, or by user messages in a harness's transcript without them", () => {
    expect(turnsOf(TRANSCRIPT)).toBe(2);
    expect(
      turnsOf([
        { role: "user", content: "a" },
        { role: "assistant", content: "b" },
        { role: "user", content: "c" },
      ]),
    ).toBe(2);
    expect(transcriptMessages({ messages: TRANSCRIPT })).toHaveLength(6);
    expect(transcriptMessages("just text")).toBeUndefined();
  });

  it("passes and fails turns and transcript assertions with $transcript, $turns and $answer bound", async () => {
    const results = await judgeConversation(
      {
        turns: { min: 3 },
        transcript: [
          { name: "asks first", jsonata: "$transcript[role = 'assistant' and $contains(content, '?')][0].turn < $transcript[role = 'tool'][0].turn" },
          { name: "one turn", jsonata: "$turns = 1" },
          { name: "answer bound", jsonata: "$answer = 'Added.'" },
          { name: "broken", jsonata: "$transcript[" },
        ],
      },
      TRANSCRIPT,
      "Added.",
      {},
    );
    expect(results.map((r) => [r.assertion, r.status, r.message])).toEqual([
      ["turns", "failed", "expected at least 3 turns; the conversation took 2"],
      ["transcript[0] asks first", "passed", "the transcript satisfies it"],
      ["transcript[1] one turn", "failed", "the expression is false for the transcript"],
      ["transcript[2] answer bound", "passed", "the transcript satisfies it"],
      ["transcript[3] broken", "failed", expect.stringMatching(/^the expression failed: does not compile/)],
    ]);
  });

  it("leaves turns and transcript not evaluated for a run with no transcript of messages", async () => {
    const results = await judgeConversation({ turns: { max: 2 }, transcript: [{ name: "x", jsonata: "true" }] }, undefined, undefined, {});
    expect(results.map((r) => r.status)).toEqual(["not_evaluated", "not_evaluated"]);
  });
});

describe("checking a conversation case", () => {
  it("names the user's unknown fakes and tools, turns' unknown tools, a missing first message, and script beside turns", async () => {
    const { file } = writeEvals(`
  - id: a
    scenario: quiet
    user: { instructions: "You are Sam.", fakes: [crn], tools: [crm/complete-tsk] }
    turns:
      - calls: [{ tool: crm/search-recrds }]
      - answer: ok
    expect: { transcript: [{ name: t, jsonata: "$transcript[" }] }
  - id: b
    prompt: Hi
    script: { calls: [] }
    turns: [{ userCalls: [{ tool: crm/no-such-tool }] }]
    expect: {}
`);
    const checked = await checkEvals(file);
    expect(checked.diagnostics.map((d) => `${d.path}: ${d.message}`)).toEqual([
      "cases[0].user: the conversation has no first message: the case has no prompt, no user.model to open it, and no turns[0].user",
      'cases[0].user.fakes[0]: no fake "crn" in the fakes manifest. Did you mean "crm"?',
      'cases[0].user.tools[0]: no fake serves a tool named "crm/complete-tsk". Did you mean "crm/complete-task"?',
      'cases[0].turns[0].calls[0].tool: no fake serves a tool named "crm/search-recrds". Did you mean "crm/search-records"?',
      "cases[0].turns[1]: turn 2 has no user message: only the first turn's may come from the case's prompt",
      'cases[0].expect.transcript[0].jsonata: Expected "]" before end of expression (S0203)',
      "cases[1].script: the case has both script and turns: a conversation scripts its agent turn by turn",
      'cases[1].turns[0].userCalls[0].tool: no fake serves a tool named "crm/no-such-tool".',
    ]);
  }, 60_000);
});
