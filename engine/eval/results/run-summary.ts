/**
 * A run's summary from its trial lines: per case (and model) the pass rate, pass@k and pass^k,
 * the mean score, the threshold verdict, calls, tokens, cost (the judge's too) and time; per suite the totals and a verdict. Read
 * from the lines alone, so `eval-simulate report` renders the same summary from the file.
 */
import { badCalls } from "../../judge/selection/index.js";
import type { RecordedCall } from "../../core/record/index.js";
import { passAtK, passHatK } from "./pass-at-k.js";
import type { TrialLine } from "./results-file.js";
import { exitCodeOf, type RunVerdict, runVerdict } from "./run-status.js";

/** One case's trials with one model. */
export interface CaseSummary {
  case: string;
  model: string;
  /** Trials planned (`iterations`) and the share that must pass. */
  iterations: number;
  accuracyThreshold: number;
  passed: number;
  failed: number;
  notEvaluated: number;
  /** Trials lost to infrastructure or never started (the budget, a fatal error): never scored. */
  notRun: number;
  skipped: number;
  /** passed / judged (pass, fail, not evaluated); NaN when none was judged. */
  passRate: number;
  /** k (the trials judged), pass@k (at least one passes) and pass^k (all pass). */
  k: number;
  passAtK: number;
  passHatK: number;
  /** The mean of the judged trials' scores (the weighted share of assertions passed); NaN when none has one. */
  meanScore: number;
  /** The score a trial passes by, when the case sets one. */
  minScore?: number;
  /** `preliminary` when trials were not run; `skipped` when none ran (no key). */
  verdict: "pass" | "fail" | "preliminary" | "skipped";
  toolCalls: number;
  /** Bad calls over the case's trials: repeats after a definitive error, schema refusals, insistence, requests outside the session. */
  badCalls: number;
  /** Requests its trials' agents sent outside their sessions (counted in `badCalls`), with the first few distinct ones; absent when none. */
  outside?: { count: number; first: string[] };
  usage: { inputTokens: number; outputTokens: number };
  /** What the agent, a conversation's simulated user and the rubric judge spent. */
  costUsd: number;
  /** The rubric judge's part: its requests, tokens and dollars, and the judgments read from the cache. */
  judge?: JudgeSpend;
  /** A conversation case's turns, trial by trial. */
  turns?: number[];
  /** A conversation case's simulated users' part: their requests, tokens and dollars (in `costUsd`; not in `usage`, the agent's). */
  user?: { requests: number; usage: { inputTokens: number; outputTokens: number }; costUsd: number };
  durationMs: number;
  /** Why trials were not run, failed outside the judge or skipped (distinct reasons). */
  reasons: string[];
  /** The distinct failed assertion messages, the first `FAILURES_SHOWN` of them, for the report. */
  failures: string[];
  /** Why its not-evaluated trials were not evaluated (their not-evaluated assertions, distinct), the first `FAILURES_SHOWN`. */
  notEvaluatedReasons?: string[];
  /** The distinct failed assertions (and not-evaluated reasons) past those listed: the report's "and N more". */
  moreFailures?: number;
  /** The OpenTelemetry trace ids of the first trials that did not pass, when the run was traced; absent otherwise. */
  traces?: string[];
}

/** How many failed assertions (and, apart, not-evaluated reasons) a case's summary lists before "and N more". */
export const FAILURES_SHOWN = 20;

/** The whole run. */
export interface RunSummary {
  cases: CaseSummary[];
  /** Cases that met and missed their threshold; trials not run and skipped. */
  passed: number;
  failed: number;
  preliminary: number;
  skipped: number;
  trials: { total: number; passed: number; failed: number; notEvaluated: number; notRun: number; skipped: number };
  toolCalls: number;
  usage: { inputTokens: number; outputTokens: number };
  /** What the agents and the rubric judge spent. */
  costUsd: number;
  judge?: JudgeSpend;
  durationMs: number;
  verdict: RunVerdict;
  exitCode: number;
  /** Why the run stopped before every trial started (the budget, a fatal provider error). */
  stopped?: string;
  /** Lines for the reader: keys to set, trials resumed. */
  notes: string[];
}

/** What grading rubrics cost over some trials. */
export interface JudgeSpend {
  requests: number;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  /** Rubrics judged by a model in this run, and read from the judgments file. */
  judged: number;
  cached: number;
}

/** The judge spend of some lines (or of some summaries), undefined when none judged a rubric. */
function judgeSpend(parts: ReadonlyArray<JudgeSpend | undefined>): JudgeSpend | undefined {
  const present = parts.filter((p): p is JudgeSpend => p !== undefined);
  if (present.length === 0) return undefined;
  const sum = (pick: (j: JudgeSpend) => number) => present.reduce((n, j) => n + pick(j), 0);
  return {
    requests: sum((j) => j.requests),
    usage: { inputTokens: sum((j) => j.usage.inputTokens), outputTokens: sum((j) => j.usage.outputTokens) },
    costUsd: sum((j) => j.costUsd),
    judged: sum((j) => j.judged),
    cached: sum((j) => j.cached),
  };
}

/** The mean of the scores of judged trials that have one. */
function meanScoreOf(lines: readonly TrialLine[]): number {
  const scores = lines
    .filter((l) => (l.status === "pass" || l.status === "fail" || l.status === "not_evaluated") && typeof l.score === "number")
    .map((l) => l.score!);
  return scores.length === 0 ? Number.NaN : scores.reduce((a, b) => a + b, 0) / scores.length;
}

/** A case the run planned, so one whose trials never started still shows (as not run). */
export interface PlannedCase {
  case: string;
  model: string;
  iterations: number;
  accuracyThreshold: number;
  minScore?: number;
}

const key = (c: string, model: string) => `${c}\u0000${model}`;

/** A line's bad calls: as stored, else counted from its record (a file written before they were stored). */
const badCallsOf = (line: TrialLine): number =>
  line.badCalls?.total ?? (Array.isArray(line.session?.record) ? badCalls(line.session.record as RecordedCall[]).total : 0);

function summarizeCase(plan: PlannedCase, lines: readonly TrialLine[]): CaseSummary {
  const count = (status: TrialLine["status"]) => lines.filter((l) => l.status === status).length;
  const passed = count("pass");
  const failed = count("fail");
  const notEvaluated = count("not_evaluated");
  const skipped = count("skipped");
  const judged = passed + failed + notEvaluated;
  const notRun = Math.max(count("not_run"), plan.iterations - judged - skipped);
  const passRate = judged === 0 ? Number.NaN : passed / judged;
  let verdict: CaseSummary["verdict"];
  if (judged === 0 && skipped > 0 && notRun === 0) verdict = "skipped";
  else if (notRun > 0) verdict = "preliminary";
  else verdict = passRate >= plan.accuracyThreshold - 1e-9 ? "pass" : "fail";
  const reasons = [...new Set(lines.flatMap((l) => (l.reason ? [l.reason] : [])))];
  const messages = (of: readonly TrialLine[], status: string) => [
    ...new Set(
      of.flatMap((l) =>
        (l.assertions as Array<{ status?: string; assertion?: string; message?: string }>)
          .filter((a) => a.status === status)
          .map((a) => `${a.assertion}: ${a.message}`),
      ),
    ),
  ];
  const allFailures = messages(lines, "failed");
  const allUnevaluated = messages(
    lines.filter((l) => l.status === "not_evaluated"),
    "not_evaluated",
  );
  const failures = allFailures.slice(0, FAILURES_SHOWN);
  const notEvaluatedReasons = allUnevaluated.slice(0, FAILURES_SHOWN);
  const moreFailures = allFailures.length - failures.length + allUnevaluated.length - notEvaluatedReasons.length;
  const traces = lines.flatMap((l) => (l.traceId && l.status !== "pass" && l.status !== "skipped" ? [l.traceId] : [])).slice(0, 5);
  const outsideCount = lines.reduce((n, l) => n + (l.badCalls?.outsideSession ?? 0), 0);
  const judge = judgeSpend(lines.map((l) => l.judge));
  const minScore = plan.minScore ?? lines.find((l) => l.minScore !== undefined)?.minScore;
  const outside =
    outsideCount > 0
      ? { count: outsideCount, first: [...new Set(lines.flatMap((l) => (l.outside ?? []).map((o) => `${o.method} ${o.path} (${o.kind})`)))].slice(0, 5) }
      : undefined;
  return {
    ...plan,
    passed,
    failed,
    notEvaluated,
    notRun,
    skipped,
    passRate,
    k: judged,
    passAtK: passAtK(judged, passed, judged),
    passHatK: passHatK(judged, passed, judged),
    meanScore: meanScoreOf(lines),
    ...(minScore === undefined ? {} : { minScore }),
    verdict,
    toolCalls: lines.reduce((n, l) => n + l.calls, 0),
    badCalls: lines.reduce((n, l) => n + badCallsOf(l), 0),
    ...(outside ? { outside } : {}),
    usage: { inputTokens: lines.reduce((n, l) => n + l.usage.inputTokens, 0), outputTokens: lines.reduce((n, l) => n + l.usage.outputTokens, 0) },
    costUsd: lines.reduce((n, l) => n + l.costUsd + (l.user?.costUsd ?? 0), 0) + (judge?.costUsd ?? 0),
    ...(judge ? { judge } : {}),
    ...conversationOf(lines),
    durationMs: Math.round(lines.reduce((n, l) => n + l.durationMs, 0)),
    reasons,
    failures,
    ...(notEvaluatedReasons.length > 0 ? { notEvaluatedReasons } : {}),
    ...(moreFailures > 0 ? { moreFailures } : {}),
    ...(traces.length > 0 ? { traces } : {}),
  };
}

/** A conversation case's turns per trial and what its simulated users spent (nothing for a single-turn case). */
function conversationOf(lines: readonly TrialLine[]): Pick<CaseSummary, "turns" | "user"> {
  const talks = lines.filter((l) => l.turns !== undefined);
  if (talks.length === 0) return {};
  const users = talks.flatMap((l) => (l.user ? [l.user] : []));
  return {
    turns: talks.map((l) => l.turns!),
    user: {
      requests: users.reduce((n, u) => n + u.requests, 0),
      usage: { inputTokens: users.reduce((n, u) => n + u.usage.inputTokens, 0), outputTokens: users.reduce((n, u) => n + u.usage.outputTokens, 0) },
      costUsd: users.reduce((n, u) => n + u.costUsd, 0),
    },
  };
}

/**
 * Summarises trial lines. `planned` lists the cases a run meant to run (so a case whose trials
 * never started is not run, not missing); without it the lines' own cases are used.
 * `plannedTrials` (from a merge: the whole run's) counts the trials of cases no line names as not run.
 *
 * @example const summary = summarize(readResults("eval-results/run.ndjson"));
 */
export function summarize(
  lines: readonly TrialLine[],
  options: { planned?: readonly PlannedCase[]; stopped?: string; notes?: string[]; plannedTrials?: number } = {},
): RunSummary {
  const groups = new Map<string, TrialLine[]>();
  for (const line of lines) {
    const k = key(line.case, line.model);
    const group = groups.get(k);
    if (group) group.push(line);
    else groups.set(k, [line]);
  }
  const planned = [...(options.planned ?? [])];
  const seen = new Set(planned.map((p) => key(p.case, p.model)));
  for (const line of lines) {
    if (seen.has(key(line.case, line.model))) continue;
    seen.add(key(line.case, line.model));
    planned.push({
      case: line.case,
      model: line.model,
      iterations: line.iterations ?? 1,
      accuracyThreshold: line.accuracyThreshold ?? 1,
      ...(line.minScore === undefined ? {} : { minScore: line.minScore }),
    });
  }
  const cases = planned.map((plan) => summarizeCase(plan, groups.get(key(plan.case, plan.model)) ?? []));
  const sum = (pick: (c: CaseSummary) => number) => cases.reduce((n, c) => n + pick(c), 0);
  // Trials a merge knows were planned but whose cases no line names (a shard never merged): not run.
  const missing = Math.max(0, (options.plannedTrials ?? 0) - sum((c) => c.iterations));
  const trials = {
    total: sum((c) => c.iterations) + missing,
    passed: sum((c) => c.passed),
    failed: sum((c) => c.failed),
    notEvaluated: sum((c) => c.notEvaluated),
    notRun: sum((c) => c.notRun) + missing,
    skipped: sum((c) => c.skipped),
  };
  const judge = judgeSpend(cases.map((c) => c.judge));
  const verdict = runVerdict({
    passedCases: cases.filter((c) => c.verdict === "pass").length,
    failedCases: cases.filter((c) => c.verdict === "fail").length,
    notRun: trials.notRun,
    skipped: trials.skipped,
    judged: trials.passed + trials.failed + trials.notEvaluated,
    stopped: options.stopped !== undefined,
  });
  return {
    cases,
    passed: cases.filter((c) => c.verdict === "pass").length,
    failed: cases.filter((c) => c.verdict === "fail").length,
    preliminary: cases.filter((c) => c.verdict === "preliminary").length,
    skipped: cases.filter((c) => c.verdict === "skipped").length,
    trials,
    toolCalls: sum((c) => c.toolCalls),
    usage: { inputTokens: sum((c) => c.usage.inputTokens), outputTokens: sum((c) => c.usage.outputTokens) },
    costUsd: sum((c) => c.costUsd),
    ...(judge ? { judge } : {}),
    durationMs: sum((c) => c.durationMs),
    verdict,
    exitCode: exitCodeOf(verdict),
    ...(options.stopped === undefined ? {} : { stopped: options.stopped }),
    notes: options.notes ?? [],
  };
}

/** @deprecated The old spelling of {@link summarize}, which the library's names use (`summarizeSelection`, `normalizeFakes`). */
export const summarise: typeof summarize = summarize;
