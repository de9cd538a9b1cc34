/** Reading answers back: the calls a fake answered, decoded by its contract. */
export { answered } from "./answered.js";
export type { Answered } from "./answered.js";
export { answerEntries } from "./answer-entries.js";
export type { AnswerEntries, AnswerSource } from "./answer-entries.js";
