/**
 * engine/eval/hosts/: what runs the agent in a trial, behind `AgentHost` (`agent-host.ts`; a
 * conversation's turn and transcript as a host sees them: `agent-turn.ts`): a
 * case's script over MCP (`script-host.ts`), a model through the AI SDK charged to the budget
 * (`model-host.ts`), and an agent CLI given an `mcpServers` config file (`command-host.ts`) in a
 * process group of its own: SIGTERM then SIGKILL to every process it started, and killed when the
 * runner exits or dies of a signal (`process-group.ts`); who answers the fakes' questions to the
 * agent's client, elicitation and sampling (`client-answers.ts`; the case's `client:` first, else
 * a conversation's model user for elicitation: `user-answers.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { FatalRunError, NO_USAGE } from "./agent-host.js";
export type { AgentHost, AgentOutcome, AgentTrial } from "./agent-host.js";
export type { AgentTurn, Transcript, TranscriptMessage, TranscriptToolCall, UserReply, UserSimulator } from "./agent-turn.js";
export { commandHost } from "./command-host.js";
export type { CommandHostConfig } from "./command-host.js";
export { modelHost } from "./model-host.js";
export type { ModelHostConfig } from "./model-host.js";
export { scriptHost } from "./script-host.js";
export { answerWith, answererCapabilities, scriptedAnswers } from "./client-answers.js";
export type { ClientAnswerer, ClientQuestion } from "./client-answers.js";
export { parseElicited, trialAnswerer } from "./user-answers.js";
