/**
 * engine/eval/conversation/: a case played as a conversation. The loop (`conversation-loop.ts`):
 * one session across every turn, the simulated user and the agent taking turns until a stop
 * signal or `maxTurns`, the transcript built from what was said and the session's record (each
 * step's calls with result, commit, turn and side: `turn-messages.ts`). The users: a case's
 * scripted `turns` (`scripted-user.ts`, for `--dry`), or a model on the AI SDK
 * (`model-user.ts`) with a system prompt from the case's `instructions` (`simulator-prompt.ts`)
 * and, under dual control, the tools of the user's own fakes.
 *
 * Other folders import this folder through this file only.
 */
export { DEFAULT_MAX_TURNS, isConversation, runConversation } from "./conversation-loop.js";
export type { Conversation, ConversationInput, UserSpend } from "./conversation-loop.js";
export { modelUser } from "./model-user.js";
export type { ModelUserContext, UserConfig } from "./model-user.js";
export { scriptedUser } from "./scripted-user.js";
export { SIMULATOR_OPENING, simulatorMessages, simulatorSystem } from "./simulator-prompt.js";
export { stepMessages } from "./turn-messages.js";
