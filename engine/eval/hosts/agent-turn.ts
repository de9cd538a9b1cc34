/**
 * A turn of a conversation as a host sees it, and the transcript both sides write: the shape a
 * trial line's `transcript` and a run folder's `transcript.json` hold, one message per entry in
 * the order they happened.
 */

/** A tool call inside a message: what was called, by its served name, with which arguments. */
export interface TranscriptToolCall {
  /** Unique in its transcript; a `tool` message's `toolCallId` names it. */
  id: string;
  /** `server/tool` (`api/operation` for an API fake). */
  name: string;
  args: unknown;
}

/** One message of a conversation. */
export interface TranscriptMessage {
  /** The turn it belongs to, from 1: a user message opens each turn. */
  turn: number;
  /** `user` (the simulated user, or the case's prompt), `assistant` (the agent), `tool` (a tool's result). */
  role: "user" | "assistant" | "tool";
  /** What was said (a user's or the agent's message). */
  content?: string;
  /** The calls this message made (the agent's, or the user's under dual control). */
  toolCalls?: TranscriptToolCall[];
  /** On a `tool` message: the call it answers. */
  toolCallId?: string;
  /** On a `tool` message: the tool, as in its call. */
  name?: string;
  /** On a `tool` message: the tool's result, as the session recorded it. */
  result?: unknown;
  isError?: boolean;
  /** On a `tool` message whose call changed the world: the commit's number in the session (milestones and `never` are judged per commit). */
  commit?: number;
  /** On a `tool` message: what the fake asked the client during the call (`elicitation/create`, `sampling/createMessage`) and the answer, as recorded. */
  exchanges?: unknown[];
  /** Who made the call: the agent, or the user (dual control). */
  by?: "agent" | "user";
}

/** A conversation: every message of both sides, in order. */
export type Transcript = TranscriptMessage[];

/**
 * The turn a host is asked to take, given on `AgentTrial.turn` when the case is a conversation.
 * A host that reads only `case.prompt` still works: the runner sets it to this turn's message.
 */
export interface AgentTurn {
  /** From 1. */
  number: number;
  /** The user's message this turn answers (also `case.prompt`). */
  message: string;
  /** Every message so far, both sides, this turn's user message last. */
  transcript: readonly TranscriptMessage[];
  /**
   * What the host handed back as `AgentOutcome.carry` at the end of the previous turn (the model
   * host's AI SDK messages): a host keeps its history here, not on itself, since trials run at once.
   */
  carry?: unknown;
}

/** What a simulated user answered: a message, or the end of the conversation, and what it cost. */
export interface UserReply {
  /** The user's message (absent when they only end the conversation). */
  content?: string;
  /** True when the user ends the conversation (its stop signal). */
  stop: boolean;
  /** Model requests made for this reply (0 for a scripted user). */
  requests: number;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
}

/**
 * The simulated user of one trial. The conversation loop asks it for each turn's message; a host
 * may ask it too (`AgentTrial.user`), to answer what the agent asks its user mid-turn, an MCP
 * elicitation or a confirmation, in character: pass the transcript so far with the question as
 * the last `assistant` message, and read `content`. A reply may make calls on the user's own
 * fakes (dual control); they are recorded in the trial's session as the user's.
 *
 * @example
 * const reply = await trial.user?.reply([...trial.turn.transcript, { turn: 2, role: "assistant", content: "Delete all three?" }]);
 * reply?.content; // "Only the first one."
 */
export interface UserSimulator {
  /** Names it in results: `script` for a scripted user, or its `provider:model`. */
  readonly label: string;
  /** The user's next message after `messages` (throws when the simulator fails: the trial is then not run). */
  reply(messages: readonly TranscriptMessage[], signal?: AbortSignal): Promise<UserReply>;
}
