/** `eval-simulate/fidelity`: hold a fake to the real MCP server it imitates (replay, observe). Named exports only. */
export { answerDifferences, answerText, callForAnswer, readForAnswer } from "../tools/fidelity/index.js";
export type { CallAnswer } from "../tools/fidelity/index.js";
export { readCalls } from "../tools/fidelity/index.js";
export type { ReplayCall } from "../tools/fidelity/index.js";
export { observe, observeTool } from "../tools/fidelity/index.js";
export type { ObserveOptions } from "../tools/fidelity/index.js";
export { replay } from "../tools/fidelity/index.js";
export type { ReplayOptions, ReplayedCall } from "../tools/fidelity/index.js";
export { mcpTarget } from "../author/capture/index.js";
