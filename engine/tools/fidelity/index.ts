/**
 * engine/tools/fidelity/: `eval-simulate/fidelity`, a fake held to the real MCP server. Calls files
 * (`calls-file.ts`), one answer as a client got it and how two differ (`call-answer.ts`), `replay`
 * (the real server, started fresh each time: `fresh-target.ts`, against a fresh fake, `replay.ts`),
 * the parts of answers a replay leaves out (`answer-ignore.ts`), and `observe` with its schema inference
 * (`observe.ts`, `infer-schema.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { answerDifferences, answerText, callForAnswer, readForAnswer } from "./call-answer.js";
export type { CallAnswer } from "./call-answer.js";
export { readCalls } from "./calls-file.js";
export type { ReplayCall } from "./calls-file.js";
export { observe, observeTool, recordObserved } from "./observe.js";
export type { ObserveOptions } from "./observe.js";
export { replay } from "./replay.js";
export type { ReplayOptions, ReplayedCall } from "./replay.js";
