import { Type } from "typebox";
import { describe, ID_PATTERN } from "../describe.js";
import { Count, ScriptCall, ToolName } from "./calls.js";
import { NamedExpression } from "./state.js";

import { DEFAULT_USER_STOP } from "./user-stop.js";

export { DEFAULT_USER_STOP };

/** A case's simulated user: who they are, the model that plays them, and how the conversation ends. */
export const User = Type.Object(
  {
    instructions: Type.String({
      minLength: 1,
      ...describe(
        "Who the user is, what they want, what they know and will say only when asked, and when they are satisfied: the simulator's system prompt is built from it.",
        { examples: ["You are Dana from Umbrella. You want a kick-off note on your company. Only say the date (3 March) when asked."] },
      ),
    }),
    model: Type.Optional(
      Type.String({
        minLength: 1,
        ...describe("The simulator's model, `provider:model` like an agent's (a `--dry` or script run plays `turns` instead).", {
          examples: ["openai:gpt-4.1-mini"],
        }),
      }),
    ),
    baseURL: Type.Optional(Type.String(describe("The endpoint of an OpenAI-compatible simulator model."))),
    temperature: Type.Optional(Type.Number({ minimum: 0, ...describe("The simulator's sampling temperature.", { default: 0 }) })),
    seed: Type.Optional(Type.Integer(describe("The simulator's sampling seed, where its provider takes one (the trial's iteration is added)."))),
    maxTokens: Type.Optional(Type.Integer({ minimum: 1, ...describe("The most tokens one of the simulator's replies may take.") })),
    maxTurns: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        ...describe("The most turns (a user message and the agent's reply) a conversation may take.", { default: 10 }),
      }),
    ),
    stop: Type.Optional(
      Type.String({ minLength: 1, ...describe("The simulator's stop signal: a reply holding it ends the conversation.", { default: DEFAULT_USER_STOP }) }),
    ),
    agentStop: Type.Optional(
      Type.String({ minLength: 1, ...describe("The agent's stop signal: an agent reply holding it ends the conversation (none by default).") }),
    ),
    fakes: Type.Optional(
      Type.Array(Type.String({ pattern: ID_PATTERN }), {
        minItems: 1,
        uniqueItems: true,
        ...describe("Dual control: the fakes on the user's side (their phone, their router). The simulator gets their tools; the agent is not given them.", {
          examples: [["router"]],
        }),
      }),
    ),
    tools: Type.Optional(
      Type.Array(ToolName("A tool the user may call:"), {
        minItems: 1,
        ...describe("Dual control: only these of the user's tools (every tool of `fakes` by default; a tool here may be on any of the case's fakes)."),
      }),
    ),
  },
  {
    additionalProperties: false,
    ...describe("A simulated user: the case becomes a conversation of several turns, the simulator opening unless `prompt` does."),
  },
);

/** One scripted turn: what the user does and says, then what the scripted agent does and says. */
export const Turn = Type.Object(
  {
    user: Type.Optional(Type.String(describe("The user's message (the first turn's is the case's `prompt` when left out)."))),
    userCalls: Type.Optional(Type.Array(ScriptCall, describe("Dual control: the calls the user makes before saying it."))),
    calls: Type.Optional(Type.Array(ScriptCall, describe("The agent's calls this turn, in order."))),
    answer: Type.Optional(Type.String(describe("The agent's reply this turn."))),
  },
  { additionalProperties: false, ...describe("One turn of a scripted conversation.") },
);

/** A case's scripted conversation: `--dry` and the script host play it through the conversation loop. */
export const Turns = Type.Array(Turn, {
  minItems: 1,
  ...describe("A scripted conversation (the user's side and the agent's), played by `--dry` and the script host through the same loop as a simulated user."),
});

/** Expectations over the conversation. */
export const ConversationExpectations = {
  turns: Type.Optional(Count("How many turns the conversation took.")),
  transcript: Type.Optional(
    Type.Array(
      NamedExpression(
        "A JSONata expression over the conversation that must be true.",
        "Bindings: `$transcript` (every message in order: `turn`, `role` user|assistant|tool, `content`, `toolCalls`, `result`, `commit`, `by`; also the input), `$turns`, `$answer`, `$final`.",
        "$count($transcript[role = 'assistant' and $contains(content, '?')]) >= 1",
      ),
      describe("JSONata assertions over the transcript; not evaluated for a run without one."),
    ),
  ),
};
