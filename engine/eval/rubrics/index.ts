/** The door of engine/eval/rubrics/: what other folders may import from it. */
export { JUDGE_PROMPT_VERSION, JUDGE_SYSTEM, JUDGMENT_SCHEMA, judgePrompt } from "./judge-prompt.js";
export { JudgmentCache, judgmentKey, judgmentsFile } from "./judgment-cache.js";
export type { CachedJudgment } from "./judgment-cache.js";
export { judgeModelOf, judgeModels, rubricJudge } from "./rubric-judge.js";
export type { RubricJudgeOptions, RunRubricJudge } from "./rubric-judge.js";
