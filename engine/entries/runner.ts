/**
 * Running evals: every case of an evals file, many trials at once against sessions of the
 * fakes, each judged, with results, resume, budgets and reports; running tool-selection fixtures
 * against a model and their report; comparing two runs; the bad calls in a trial's record.
 * Named exports only.
 */
export { runEvals } from "../eval/runner/index.js";
export type { EvalsResult, HostChoice, RunEvalsOptions } from "../eval/runner/index.js";
export { mergeResults, readResults } from "../eval/results/index.js";
export type { MergedRun, ResultsSource, TrialConflict } from "../eval/results/index.js";
export { parseShard } from "../eval/runner/index.js";
export type { RunProgress, Shard } from "../eval/runner/index.js";
export type { TrialLine, TrialStatus } from "../eval/results/index.js";
export { summarise, summarize } from "../eval/results/index.js";
export type { CaseSummary, RunSummary } from "../eval/results/index.js";
export { renderSummaryMarkdown, renderSummaryText } from "../eval/results/index.js";
export { renderJunit } from "../eval/results/index.js";
export { passAtK, passHatK } from "../eval/results/index.js";
export { FatalRunError } from "../eval/hosts/index.js";
export type { AgentHost, AgentOutcome, AgentTrial } from "../eval/hosts/index.js";
export type { AgentTurn, Transcript, TranscriptMessage, TranscriptToolCall, UserReply, UserSimulator } from "../eval/hosts/index.js";
export { answerWith, answererCapabilities, scriptedAnswers } from "../eval/hosts/index.js";
export type { ClientAnswerer, ClientQuestion } from "../eval/hosts/index.js";
export { PRICES, UnknownPriceError } from "../eval/models/index.js";
export type { Price } from "../eval/models/index.js";
export { DEFAULT_SELECTION_SYSTEM, runSelection } from "../eval/runner/index.js";
export type { SelectionLine, SelectionRun, SelectionRunOptions } from "../eval/runner/index.js";
export { renderSelectionJson, renderSelectionMarkdown, renderSelectionText, summarizeSelection } from "../eval/runner/index.js";
export type { SelectionSummary } from "../eval/runner/index.js";
export { compareRuns } from "../eval/results/index.js";
export type { CaseChange, CaseChangeKind, Comparison, Proposal, RunSide, ToolDelta } from "../eval/results/index.js";
export { renderCompareJson, renderCompareMarkdown, renderCompareText } from "../eval/results/index.js";
export { badCalls, callKey } from "../judge/selection/index.js";
export type { BadCallCounts, BadCallReport } from "../judge/selection/index.js";
export { JUDGE_PROMPT_VERSION, judgmentsFile, rubricJudge } from "../eval/rubrics/index.js";
export type { RubricJudgeOptions, RunRubricJudge } from "../eval/rubrics/index.js";
export { startTracing, stopTracing } from "../serve/telemetry/index.js";
export type { TracingStart } from "../serve/telemetry/index.js";
