/**
 * engine/author/answers/: `answered`, the calls a fake answered, each decoded by its contract (a
 * refused call left out, a successful answer outside the contract thrown), and each tool's answers
 * by name (`answer-entries.ts`). The `eval-simulate/answers` entry.
 *
 * Other folders import this folder through this file only.
 */
export { answerEntries } from "./answer-entries.js";
export type { AnswerEntries, AnswerSource } from "./answer-entries.js";
export { answered } from "./answered.js";
export type { Answered } from "./answered.js";
