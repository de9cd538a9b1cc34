/**
 * The rubric judge of `eval` and `verify`: a natural-language criterion graded by a model.
 * - `judge-prompt.ts`: the versioned judge prompt (`JUDGE_PROMPT_VERSION`) and the judgment's schema
 *   (verdict, score, reasoning) sent through the AI SDK's structured output.
 * - `judgment-cache.ts`: the judgments file beside the evals file, keyed by a hash of the rubric,
 *   its inputs, the model and the prompt version, so re-judging a run is free and deterministic.
 * - `rubric-judge.ts`: judging from that file or by a model (malformed replies asked again, the
 *   spend charged to the budget), handed to the judge layer's `judgeRun` as its `rubrics`.
 */
export { JUDGE_PROMPT_VERSION, JUDGE_SYSTEM, JUDGMENT_SCHEMA, judgePrompt } from "./judge-prompt.js";
export { JudgmentCache, judgmentKey, judgmentsFile } from "./judgment-cache.js";
export type { CachedJudgment } from "./judgment-cache.js";
export { judgeModelOf, judgeModels, rubricJudge } from "./rubric-judge.js";
export type { RubricJudgeOptions, RunRubricJudge } from "./rubric-judge.js";
