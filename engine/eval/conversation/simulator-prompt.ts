/**
 * What the user simulator is told and shown: a system prompt built from the case's
 * `instructions` (after τ²-bench's user simulator: stay in character, reveal only what is asked,
 * end with the stop signal), and the conversation with the roles turned round, since to the
 * simulator the agent is the one talking to it.
 */
import type { TranscriptMessage } from "../hosts/index.js";

/**
 * The simulator's system prompt.
 *
 * @example simulatorSystem("You are Dana…", "###STOP###", true)
 */
export function simulatorSystem(instructions: string, stop: string, hasTools: boolean): string {
  return [
    "You are playing the user in a conversation with an AI assistant (the agent). You are not the assistant: never answer as it would, never offer help.",
    "",
    "<instructions>",
    instructions.trim(),
    "</instructions>",
    "",
    "Rules:",
    "- Write only your next message to the agent, in plain words, as this user would type it: short, one message at a time.",
    "- Stay in character. Say what your instructions say only when the agent asks for it or it is needed; never invent facts your instructions do not give.",
    ...(hasTools
      ? [
          "- Your tools act on your own side (your device, your account). Use one only when the agent asks you to do it or your instructions say so, then tell the agent what you did.",
        ]
      : []),
    `- When your goal is met, or it cannot be met, or the agent has nothing more for you, reply with ${stop} alone.`,
  ].join("\n");
}

/** The opening the simulator answers when it speaks first. */
export const SIMULATOR_OPENING = "(The conversation starts. Write your first message to the agent.)";

/**
 * The conversation as the simulator sees it: the agent's words as `user`, its own as `assistant`,
 * tool traffic left out (the world it changed shows in what is said), consecutive messages of one
 * side joined, and always opening with a `user` message as every provider wants.
 *
 * @example simulatorMessages([{ turn: 1, role: "user", content: "Hi" }]) // [{ role: "user", content: SIMULATOR_OPENING }, { role: "assistant", content: "Hi" }, …]
 */
export function simulatorMessages(transcript: readonly TranscriptMessage[]): Array<{ role: "user" | "assistant"; content: string }> {
  const out: Array<{ role: "user" | "assistant"; content: string }> = [{ role: "user", content: SIMULATOR_OPENING }];
  for (const message of transcript) {
    if (message.role === "tool" || message.content === undefined || message.content === "") continue;
    const role = message.role === "user" ? "assistant" : "user";
    const last = out[out.length - 1]!;
    if (last.role === role) last.content = `${last.content}\n\n${message.content}`;
    else out.push({ role, content: message.content });
  }
  // The simulator always answers the agent: a transcript ending on the user's own words asks it to go on.
  if (out[out.length - 1]!.role === "assistant") out.push({ role: "user", content: "(The agent is waiting for you.)" });
  return out;
}
