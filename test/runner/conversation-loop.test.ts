import { describe, expect, it } from "vitest";
import type { EvalCase } from "../../schema/evals/evals.js";
import type { AgentHost, AgentOutcome, AgentTrial } from "../../engine/eval/hosts/agent-host.js";
import type { UserReply, UserSimulator } from "../../engine/eval/hosts/agent-turn.js";
import { runConversation } from "../../engine/eval/conversation/conversation-loop.js";
import { capTranscript } from "../../engine/eval/results/trial-line-fit.js";
import type { Session } from "../../engine/serve/host/session-handle.js";

// The loop on its own: a session, a host and a user of plain objects, no port, no model.

const free = { requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };

/** A session of two fakes, `crm` and the user's `phone`, whose record is `lines`. */
function stubSession(): Session {
  const servers = [
    { id: "crm", transport: "streamable_http" as const, url: "http://127.0.0.1:1/s/x/crm/mcp" },
    { id: "phone", transport: "streamable_http" as const, url: "http://127.0.0.1:1/s/x/phone/mcp" },
  ];
  return { id: "s-1", fakes: ["crm", "phone"], mcpServers: () => servers, idle: async () => undefined } as unknown as Session;
}

const trialOf = (c: Partial<EvalCase>, session = stubSession()): AgentTrial => ({
  case: { id: "talk", expect: {}, ...c } as EvalCase,
  iteration: 0,
  session,
  fakes: {} as AgentTrial["fakes"],
  signal: new AbortController().signal,
});

/** A user answering from a list, then stopping. */
function listUser(replies: Array<Partial<UserReply> | Error>): UserSimulator & { seen: number[] } {
  const seen: number[] = [];
  return {
    label: "list",
    seen,
    async reply(messages) {
      seen.push(messages.length);
      const next = replies.shift();
      if (next instanceof Error) throw next;
      return { stop: false, ...free, ...(next ?? { stop: true }) };
    },
  };
}

describe("the conversation loop", () => {
  it("hands each turn the message, the transcript so far and the last turn's carry, and frees the carry once at the end", async () => {
    const turns: AgentTrial["turn"][] = [];
    const freed: unknown[] = [];
    const host: AgentHost = {
      label: "stub",
      async run(trial): Promise<AgentOutcome> {
        turns.push(trial.turn);
        expect(trial.case.prompt).toBe(trial.turn!.message);
        return { ...free, answer: `reply ${trial.turn!.number}`, carry: { history: trial.turn!.number } };
      },
      async endConversation(carry) {
        freed.push(carry);
      },
    };
    const talk = await runConversation({
      host,
      trial: trialOf({ prompt: "Hi", user: { instructions: "x" } }),
      user: listUser([{ content: "More" }]),
      recorded: () => [],
    });
    expect(talk).toMatchObject({ turns: 2, ended: "user", outcome: { answer: "reply 2" } });
    expect(turns.map((t) => [t!.number, t!.message, t!.transcript.length, t!.carry])).toEqual([
      [1, "Hi", 1, undefined],
      [2, "More", 3, { history: 1 }],
    ]);
    expect(freed).toEqual([{ history: 2 }]);
  });

  it("gives the agent a session without the user's own fakes (dual control)", async () => {
    let offered: string[] = [];
    const host: AgentHost = {
      label: "stub",
      async run(trial) {
        offered = [...trial.session.fakes, ...trial.session.mcpServers().map((s) => s.id)];
        return { ...free, answer: "ok" };
      },
    };
    await runConversation({
      host,
      trial: trialOf({ prompt: "Hi", user: { instructions: "x", fakes: ["phone"], maxTurns: 1 } }),
      user: listUser([]),
      recorded: () => [],
    });
    expect(offered).toEqual(["crm", "crm"]);
  });

  it("lets the simulator open when the case has no prompt, and keeps words beside its stop signal as the last turn's", async () => {
    const host: AgentHost = { label: "stub", run: async () => ({ ...free, answer: "Hello!" }) };
    const user = listUser([{ content: "I need help" }, { content: "Thanks, bye", stop: true }]);
    const talk = await runConversation({ host, trial: trialOf({ user: { instructions: "x" } }), user, recorded: () => [] });
    expect(talk.transcript.map((m) => [m.turn, m.role, m.content])).toEqual([
      [1, "user", "I need help"],
      [1, "assistant", "Hello!"],
      [1, "user", "Thanks, bye"],
    ]);
    expect(user.seen).toEqual([0, 2]);
  });

  it("ends on the agent's stop signal, and at maxTurns", async () => {
    const stopping: AgentHost = { label: "stub", run: async () => ({ ...free, answer: "All done ###DONE###" }) };
    const stopped = await runConversation({
      host: stopping,
      trial: trialOf({ prompt: "Hi", user: { instructions: "x", agentStop: "###DONE###" } }),
      user: listUser([{ content: "again" }]),
      recorded: () => [],
    });
    expect(stopped).toMatchObject({ ended: "agent", turns: 1 });
    const chatty: AgentHost = { label: "stub", run: async () => ({ ...free, answer: "Go on" }) };
    const endless = { label: "endless", reply: async () => ({ ...free, stop: false, content: "and?" }) };
    const capped = await runConversation({
      host: chatty,
      trial: trialOf({ prompt: "Hi", user: { instructions: "x", maxTurns: 3 } }),
      user: endless,
      recorded: () => [],
    });
    expect(capped).toMatchObject({ ended: "max_turns", turns: 3 });
  });

  it("makes the trial not run when the simulator fails, keeping what it spent apart from the agent", async () => {
    const host: AgentHost = { label: "stub", run: async () => ({ ...free, answer: "Which one?", requests: 1, costUsd: 0.5 }) };
    const failure = Object.assign(new Error("[eval-simulate] the user simulator x failed: HTTP 503"), {
      spent: { requests: 2, usage: { inputTokens: 10, outputTokens: 1 }, costUsd: 0.25 },
    });
    const talk = await runConversation({ host, trial: trialOf({ prompt: "Hi", user: { instructions: "x" } }), user: listUser([failure]), recorded: () => [] });
    expect(talk.outcome).toMatchObject({ outcome: { status: "not_run", reason: "the user simulator x failed: HTTP 503" }, requests: 1, costUsd: 0.5 });
    expect(talk.user).toEqual({ requests: 2, usage: { inputTokens: 10, outputTokens: 1 }, costUsd: 0.25 });
    expect(talk.turns).toBe(1);
  });

  it("marks each step's record lines with their side and turn, and turns them into call and tool messages", async () => {
    const lines: Record<string, unknown>[] = [];
    const host: AgentHost = {
      label: "stub",
      async run() {
        lines.push({ server: "crm", tool: "create-note", args: { title: "x" }, result: { content: [] }, commit: 2 });
        return { ...free, answer: "Noted." };
      },
    };
    const user: UserSimulator = {
      label: "dual",
      async reply() {
        lines.push({ server: "phone", tool: "restart", args: {}, result: { isError: true }, commit: 1 });
        return { ...free, stop: false, content: "Restarted it." };
      },
    };
    const talk = await runConversation({ host, trial: trialOf({ user: { instructions: "x", maxTurns: 1 } }), user, recorded: () => lines });
    expect(lines.map((l) => [l.tool, l.by, l.turn])).toEqual([
      ["restart", "user", 1],
      ["create-note", "agent", 1],
    ]);
    expect(talk.transcript).toEqual([
      { turn: 1, role: "user", toolCalls: [{ id: "call-1", name: "phone/restart", args: {} }], by: "user" },
      { turn: 1, role: "tool", toolCallId: "call-1", name: "phone/restart", result: { isError: true }, isError: true, commit: 1, by: "user" },
      { turn: 1, role: "user", content: "Restarted it." },
      { turn: 1, role: "assistant", toolCalls: [{ id: "call-2", name: "crm/create-note", args: { title: "x" } }], by: "agent" },
      { turn: 1, role: "tool", toolCallId: "call-2", name: "crm/create-note", result: { content: [] }, isError: false, commit: 2, by: "agent" },
      { turn: 1, role: "assistant", content: "Noted." },
    ]);
  });
});

describe("a stored transcript", () => {
  it("is kept whole under its cap, and past it later messages lose their results and long contents, saying how many were whole", () => {
    const transcript = [
      { turn: 1, role: "user" as const, content: "a".repeat(50) },
      { turn: 1, role: "tool" as const, name: "crm/x", result: { big: "b".repeat(200) } },
      { turn: 2, role: "user" as const, content: "c".repeat(3000) },
    ];
    expect(capTranscript(transcript)).toEqual({ transcript });
    const cut = capTranscript(transcript, 2600);
    expect(cut.cut).toEqual({ messages: 3, whole: 2 });
    expect(cut.transcript[2].content).toBe(`${"c".repeat(2000)}…`);
    const tighter = capTranscript(transcript, 150);
    expect(tighter.cut).toEqual({ messages: 3, whole: 1 });
    expect(tighter.transcript).toEqual([transcript[0], { turn: 1, role: "tool", name: "crm/x" }]);
  });
});
