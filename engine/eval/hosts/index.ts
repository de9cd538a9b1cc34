/** The door of engine/eval/hosts/: what other folders may import from it. */
export { FatalRunError, NO_USAGE } from "./agent-host.js";
export type { AgentHost, AgentOutcome, AgentTrial } from "./agent-host.js";
export { commandHost } from "./command-host.js";
export type { CommandHostConfig } from "./command-host.js";
export { modelHost } from "./model-host.js";
export type { ModelHostConfig } from "./model-host.js";
export { scriptHost } from "./script-host.js";
