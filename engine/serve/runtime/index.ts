/**
 * engine/serve/runtime/: one call's transaction. Compiled servers (`compiled-fake.ts`), the state
 * store (`state-store.ts`: frozen commits, each numbered with the values it replaced and noted
 * as made from them, `changed-keys.ts`; a read-only world view, `read-only-view.ts`; copy-on-write
 * (immer) drafts sharing every record a write does not touch, whose parts an answer takes out,
 * `detach-draft.ts`; an entity keyed by id too large to copy drafted record by record and laid
 * over its committed value, `keyed-draft.ts`; a queue per fake, `serial-queue.ts`), the tool call
 * pipeline (`call-tool.ts`, `tool-context.ts`), time limits (`deadline.ts`), what a change may not
 * do (`change-problems.ts`), each world's size kept per commit from the changed entities
 * (`json-bytes.ts`), a structured tool's text as `json`, `json-pretty` or its JSONata
 * (`answer-text.ts`), the error texts a fake declares, worded as its real server words them
 * (`error-texts.ts`), `resources/read` from committed state (`read-resource.ts`), `prompts/get` and
 * `completion/complete` over the world (`get-prompt.ts`), and what a handler says to and asks
 * the client while its call runs, kept as the call's exchanges (`client-channel.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { ToolNotFoundError, callTool } from "./call-tool.js";
export { DEFAULT_INVALID_ARGUMENTS, fillTemplate, invalidArgumentsText, unknownToolText } from "./error-texts.js";
export type { CallOutcome, RuntimeScope } from "./call-tool.js";
export { describeHandlerError, stateProblem, worldSizeProblem } from "./change-problems.js";
export { compileServer } from "./compiled-fake.js";
export { deepFreeze } from "./deep-freeze.js";
export type { CompiledServer } from "./compiled-fake.js";
export { HandlerTimeoutError, withTimeout } from "./deadline.js";
export { ResourceNotFoundError, readResource } from "./read-resource.js";
export { MAX_COMPLETIONS, PromptRequestError, complete, getPrompt } from "./get-prompt.js";
export { DEFAULT_MAX_WORLD_BYTES, StateStore } from "./state-store.js";
export type { Commit, States } from "./state-store.js";
export { ToolFailure, isToolFailure } from "../../author/handlers/index.js";
export { MAX_EXCHANGES, recordingChannel } from "./client-channel.js";
export type { ClientChannel, Exchange } from "./client-channel.js";
