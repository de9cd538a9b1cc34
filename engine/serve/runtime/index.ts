/** The door of engine/serve/runtime/: what other folders may import from it. */
export { ToolNotFoundError, callTool } from "./call-tool.js";
export type { CallOutcome, RuntimeScope } from "./call-tool.js";
export { describeHandlerError, stateProblem, worldSizeProblem } from "./change-problems.js";
export { compileServer } from "./compiled-fake.js";
export type { CompiledServer } from "./compiled-fake.js";
export { HandlerTimeoutError, withTimeout } from "./deadline.js";
export { ResourceNotFoundError, readResource } from "./read-resource.js";
export { DEFAULT_MAX_WORLD_BYTES, StateStore } from "./state-store.js";
export type { Commit, States } from "./state-store.js";
export { ToolFailure, isToolFailure } from "./tool-context.js";
