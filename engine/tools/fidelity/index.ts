/** The door of engine/tools/fidelity/: what other folders may import from it. */
export { answerDifferences, answerText, callForAnswer, readForAnswer } from "./call-answer.js";
export type { CallAnswer } from "./call-answer.js";
export { readCalls } from "./calls-file.js";
export type { ReplayCall } from "./calls-file.js";
export { observe, observeTool } from "./observe.js";
export type { ObserveOptions } from "./observe.js";
export { replay } from "./replay.js";
export type { ReplayOptions, ReplayedCall } from "./replay.js";
