/**
 * The conversation loop: one session for the whole conversation, the simulated user and the
 * agent taking turns until the user's stop signal, the agent's, or `maxTurns`. Each turn the
 * host runs once with `trial.turn` (its history handed back as `carry`), and the transcript is
 * built from what was said and from the session's record (every call with its result, commit,
 * turn and side). A simulator that fails makes the trial not run, never the agent's fail.
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { Session } from "../../serve/host/index.js";
import { turnSpan } from "../../serve/telemetry/index.js";
import type { AgentHost, AgentOutcome, AgentTrial, Transcript, UserSimulator } from "../hosts/index.js";
import { stepMessages } from "./turn-messages.js";

/** The most turns when the case gives no `maxTurns` and scripts none. */
export const DEFAULT_MAX_TURNS = 10;

/** What the user simulator spent, apart from the agent. */
export interface UserSpend {
  requests: number;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
}

/** A conversation had: the agent's outcome over every turn, the transcript, and the user's spend. */
export interface Conversation {
  /** The agent's: its last message as `answer`, its requests, usage and cost summed over the turns. */
  outcome: AgentOutcome;
  transcript: Transcript;
  /** Turns the agent took. */
  turns: number;
  user: UserSpend;
  /** What ended it. */
  ended: "user" | "agent" | "max_turns" | "not_run" | "fail";
}

export interface ConversationInput {
  host: AgentHost;
  /** The trial, its session the whole world (the user's fakes too). */
  trial: AgentTrial;
  user: UserSimulator;
  /** The session's record lines so far, live: the runner's collector. */
  recorded(): Record<string, unknown>[];
}

/** Whether a case is a conversation (a simulated user, or scripted turns). */
export const isConversation = (c: EvalCase): boolean => c.user !== undefined || c.turns !== undefined;

/** The session the agent is given: without the user's own fakes (dual control). */
function agentSession(session: Session, userFakes: readonly string[]): Session {
  if (userFakes.length === 0) return session;
  const fakes = session.fakes.filter((id) => !userFakes.includes(id));
  // Everything else (the live state, close, idle) stays the session's own.
  return Object.create(session, {
    fakes: { value: fakes },
    mcpServers: { value: () => session.mcpServers().filter((server) => !userFakes.includes(server.id)) },
  }) as Session;
}

const reasonOf = (error: unknown) => String((error as Error)?.message ?? error).replace(/^\[eval-simulate\] /, "");

/**
 * Runs a conversation case's trial.
 *
 * @example const talk = await runConversation({ host, trial, user: scriptedUser(trial), recorded: () => records.peek(session.id) });
 */
export async function runConversation(input: ConversationInput): Promise<Conversation> {
  const { host, trial } = input;
  const c = trial.case;
  const maxTurns = c.user?.maxTurns ?? (c.user ? DEFAULT_MAX_TURNS : (c.turns?.length ?? DEFAULT_MAX_TURNS));
  const agentStop = c.user?.agentStop;
  const session = agentSession(trial.session, c.user?.fakes ?? []);
  const transcript: Transcript = [];
  const spend: UserSpend = { requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };
  // Every reply is counted, the ones a host asks mid-turn (an elicitation the user answers) too.
  const user: UserSimulator = {
    label: input.user.label,
    async reply(messages, signal) {
      try {
        const reply = await input.user.reply(messages, signal);
        addSpend(spend, reply);
        return reply;
      } catch (error) {
        const spent = (error as { spent?: UserSpend }).spent;
        if (spent) addSpend(spend, spent);
        throw error;
      }
    },
  };
  const agent: AgentOutcome = { requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };
  let carry: unknown;
  let turns = 0;
  const settled = async () => {
    await trial.session.idle();
    return input.recorded().length;
  };
  const finish = (ended: Conversation["ended"], outcome?: AgentOutcome["outcome"]): Conversation => ({
    outcome: { ...agent, ...(outcome ? { outcome } : {}) },
    transcript,
    turns,
    user: spend,
    ended,
  });
  try {
    return await converse();
  } finally {
    await host.endConversation?.(carry);
  }

  async function converse(): Promise<Conversation> {
    while (turns < maxTurns) {
      if (trial.signal.aborted) return finish("not_run", { status: "not_run", reason: "the run was interrupted" });
      const turn = turns + 1;
      let message: string | undefined;
      if (turn === 1 && c.prompt !== undefined) message = c.prompt;
      else {
        const before = await settled();
        let reply;
        try {
          reply = await user.reply(transcript, trial.signal);
        } catch (error) {
          await trial.session.idle();
          transcript.push(...stepMessages(input.recorded(), before, { turn, role: "user", by: "user" }));
          if (trial.signal.aborted) return finish("not_run", { status: "not_run", reason: "the run was interrupted" });
          return finish("not_run", { status: "not_run", reason: reasonOf(error) });
        }
        await trial.session.idle();
        transcript.push(...stepMessages(input.recorded(), before, { turn, role: "user", by: "user" }));
        if (reply.stop) {
          // A closing remark beside the stop signal belongs to the last turn.
          if (reply.content !== undefined && turns > 0) transcript.push({ turn: turns, role: "user", content: reply.content });
          return finish("user");
        }
        message = reply.content;
        if (message === undefined) return finish("not_run", { status: "not_run", reason: `the user simulator ${user.label} gave no message for turn ${turn}` });
      }
      turns = turn;
      transcript.push({ turn, role: "user", content: message });
      const scripted = c.turns?.[turn - 1];
      const turnCase: EvalCase = {
        ...c,
        prompt: message,
        ...(c.turns ? { script: { calls: scripted?.calls ?? [], ...(scripted?.answer === undefined ? {} : { answer: scripted.answer }) } } : {}),
      };
      const before = await settled();
      let outcome: AgentOutcome;
      // Each turn is a span under the trial's: the turn's model requests and tool calls go under it.
      const span = turnSpan(trial.traceparent, turn);
      const traced = span.traceId === "" ? {} : { traceparent: span.traceparent };
      try {
        outcome = await host.run({ ...trial, ...traced, case: turnCase, session, turn: { number: turn, message, transcript: [...transcript], carry }, user });
      } finally {
        span.end();
        await trial.session.idle();
      }
      agent.requests += outcome.requests;
      agent.usage = { inputTokens: agent.usage.inputTokens + outcome.usage.inputTokens, outputTokens: agent.usage.outputTokens + outcome.usage.outputTokens };
      agent.costUsd += outcome.costUsd;
      if (outcome.transcript !== undefined) agent.transcript = outcome.transcript;
      carry = outcome.carry;
      transcript.push(...stepMessages(input.recorded(), before, { turn, role: "assistant", by: "agent" }));
      if (outcome.answer !== undefined) {
        transcript.push({ turn, role: "assistant", content: outcome.answer });
        agent.answer = outcome.answer;
      }
      if (outcome.outcome) return finish(outcome.outcome.status, outcome.outcome);
      if (agentStop !== undefined && outcome.answer?.includes(agentStop)) return finish("agent");
    }
    return finish("max_turns");
  }
}

function addSpend(total: UserSpend, spent: UserSpend): void {
  total.requests += spent.requests;
  total.usage = { inputTokens: total.usage.inputTokens + spent.usage.inputTokens, outputTokens: total.usage.outputTokens + spent.usage.outputTokens };
  total.costUsd += spent.costUsd;
}
