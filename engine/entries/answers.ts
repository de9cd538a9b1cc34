/** Reading answers back: the calls a fake answered, decoded by its contract. */
export { answered } from "../author/answers/index.js";
export type { Answered } from "../author/answers/index.js";
export { answerEntries } from "../author/answers/index.js";
export type { AnswerEntries, AnswerSource } from "../author/answers/index.js";
