/** `eval-simulate/fidelity`: hold a fake to the real MCP server it imitates (replay, observe). Named exports only. */
export { answerDifferences, answerText, callForAnswer, readForAnswer } from "./call-answer.js";
export type { CallAnswer } from "./call-answer.js";
export { readCalls } from "./calls-file.js";
export type { ReplayCall } from "./calls-file.js";
export { observe, observeTool } from "./observe.js";
export type { ObserveOptions } from "./observe.js";
export { replay } from "./replay.js";
export type { ReplayOptions, ReplayedCall } from "./replay.js";
export { mcpTarget } from "../capture/mcp-target.js";
