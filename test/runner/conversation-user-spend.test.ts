import { describe, expect, it } from "vitest";
import { runConversation } from "../../engine/eval/conversation/index.js";
import type { AgentHost, AgentTrial, UserReply, UserSimulator } from "../../engine/eval/hosts/index.js";
import type { Session } from "../../engine/serve/host/index.js";
import type { EvalCase } from "../../schema/evals/evals.js";

// What the simulated user spends is the trial's user spend, whoever asked it: the loop for a
// turn's message, or a host mid-turn (an elicitation the user answers, `AgentTrial.user`).
const spent = (reply: Partial<UserReply>): UserReply => ({
  stop: false,
  requests: 1,
  usage: { inputTokens: 10, outputTokens: 2 },
  costUsd: 0.25,
  ...reply,
});

describe("a conversation's user spend", () => {
  it("counts the replies a host asked of the user mid-turn beside the loop's own", async () => {
    const replies = [spent({ content: '{"confirm": true}' }), spent({ stop: true })];
    const user: UserSimulator = { label: "openai:user", reply: async () => replies.shift()! };
    const host: AgentHost = {
      label: "test",
      async run(trial) {
        // The agent's fake asked the user something: the host has the user answer it.
        await trial.user!.reply([...trial.turn!.transcript, { turn: trial.turn!.number, role: "assistant", content: "Delete it?" }]);
        return { answer: "Deleted.", requests: 1, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };
      },
    };
    const session = { id: "s1", fakes: [], mcpServers: () => [], idle: async () => {} } as unknown as Session;
    const c = { id: "talk", prompt: "Delete the note", user: { model: "openai:user", maxTurns: 3 } } as unknown as EvalCase;
    const trial = { case: c, session, iteration: 0, signal: new AbortController().signal, user } as unknown as AgentTrial;
    const talk = await runConversation({ host, trial, user, recorded: () => [] });
    expect(talk.ended).toBe("user");
    expect(talk.user).toEqual({ requests: 2, usage: { inputTokens: 20, outputTokens: 4 }, costUsd: 0.5 });
  });
});
