/**
 * engine/judge/evals/: the judge, `eval-simulate/judge`. Evals files loaded and checked
 * (`load-evals.ts`, `check-evals.ts`; `fakes:` confined to the evals file's folder), runs read
 * (`run.ts`: a run folder, or a live server's admin routes; `run-files.ts`: a run folder's files
 * under caps, states checked), the commit history rebuilt (`history.ts`; checked against the final
 * world from the keys the commits changed, `history-check.ts`), and `judgeRun` (`judge-run.ts`) over call
 * expectations (`call-expectations.ts`, `match-value.ts`), state and diffs
 * (`state-expectations.ts`, `state-diff.ts`), JSONata assertions, milestones and `never`
 * (`expressions.ts`, `world-predicates.ts`, evaluated only at the commits that touch what they
 * read: `world-dependencies.ts`), golden replay (`golden.ts`, on worlds and compiled fakes cached
 * by `fresh-world.ts`; once per case, `golden-cache.ts`, and shared with the run's other worker
 * processes through a store the runner hands in, `golden-shared.ts`; how a golden call is replayed on each kind of fake: `golden-calls.ts`) and
 * answers; a conversation's `turns` and `transcript` assertions (`conversation-checks.ts`); each
 * fake's write maps built once (`fake-maps.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { transcriptMessages, turnsOf } from "./conversation-checks.js";
export { fakeMaps } from "./fake-maps.js";
export { useGoldenStore } from "./golden-shared.js";
export type { GoldenStore } from "./golden-shared.js";
export { rebuildHistory } from "./history.js";
export type { Commit, History } from "./history.js";
export { judgeRun } from "./judge-run.js";
export type { JudgeInput } from "./judge-run.js";
export { milestonePlan } from "./milestones.js";
export type { MilestonePlan } from "./milestones.js";
export type { JudgmentCost, RubricJudge, RubricJudgment, RubricRequest } from "./rubrics.js";
export { scoreOf, verdictOf, weighResults } from "./score.js";
export { checkEvals, loadEvals } from "./load-evals.js";
export { isEvalsFile } from "../../core/files/index.js";
export type { EvalsCheck, EvalsOptions } from "./load-evals.js";
export { fetchRun, finalAnswer, readRun } from "./run.js";
export { MAX_ANSWER_BYTES } from "./run-files.js";
export type { Run } from "./run.js";
export type { AssertionResult, AssertionStatus, EvalCase, EvalsDocument, JudgeCost, JudgedCase, Score, Verdict } from "./types.js";
