/** The door of engine/author/answers/: what other folders may import from it. */
export { answerEntries } from "./answer-entries.js";
export type { AnswerEntries, AnswerSource } from "./answer-entries.js";
export { answered } from "./answered.js";
export type { Answered } from "./answered.js";
