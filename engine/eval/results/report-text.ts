/**
 * A run's summary as text (what `eval` prints at the end) and as Markdown (a CI job summary or a
 * pull-request comment): per case the trials, pass rate, pass^k and pass@k, mean score,
 * threshold, calls, tokens, cost (the rubric judge's too) and time, then the totals and the verdict.
 */
import type { CaseSummary, RunSummary } from "./run-summary.js";

const pct = (x: number) => (Number.isNaN(x) ? "–" : `${Math.round(x * 100)}%`);
const usd = (x: number) => `$${x < 0.01 && x > 0 ? x.toFixed(4) : x.toFixed(2)}`;
const tokens = (u: { inputTokens: number; outputTokens: number }) => `${u.inputTokens}/${u.outputTokens}`;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
const calls = (c: CaseSummary) => `${c.toolCalls} tool calls${c.badCalls > 0 ? ` (${c.badCalls} bad)` : ""}`;
/** Requests the case's agents sent outside their sessions, the first few named. */
const outsideOf = (c: CaseSummary) =>
  c.outside ? [`${c.outside.count} request${c.outside.count === 1 ? "" : "s"} outside its session: ${c.outside.first.join(", ")}`] : [];

const score = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(2));
/** `; mean score 0.83 (min 0.80)`, or nothing when no trial has a score. */
const meanScoreOf = (c: CaseSummary) =>
  Number.isNaN(c.meanScore) ? "" : `; mean score ${score(c.meanScore)}${c.minScore === undefined ? "" : ` (min ${score(c.minScore)})`}`;
/** A conversation case's turns per trial, and what its simulated user spent when it is a model. */
const talkOf = (c: CaseSummary) =>
  c.turns
    ? `turns ${c.turns.join(", ")} (per trial)${c.user && c.user.requests > 0 ? `; user: ${c.user.requests} requests, tokens in/out ${tokens(c.user.usage)}, ${usd(c.user.costUsd)}` : ""}`
    : "";
/** What the rubric judge spent, when it judged anything. */
const judgeOf = (j: RunSummary["judge"]) =>
  j && j.judged + j.cached + j.requests > 0 ? `judge: ${j.judged} judged, ${j.cached} from the cache, tokens in/out ${tokens(j.usage)}, ${usd(j.costUsd)}` : "";

const VERDICT_TEXT: Record<CaseSummary["verdict"], string> = { pass: "PASS", fail: "FAIL", preliminary: "PRELIMINARY", skipped: "SKIPPED" };

/** A case that failed only because trials were not evaluated says so, rather than a plain FAIL. */
const verdictOf = (c: CaseSummary) => (c.verdict === "fail" && c.failed === 0 && c.notEvaluated > 0 ? "NOT EVALUATED" : VERDICT_TEXT[c.verdict]);

/** Every failed assertion (✗), why trials were not evaluated (○), "and N more" past the cap, then reasons and requests outside the session (!). */
function detailsOf(c: CaseSummary): string[] {
  return [
    ...c.failures.map((f) => `✗ ${f}`),
    ...(c.notEvaluatedReasons ?? []).map((r) => `○ not evaluated: ${r}`),
    ...(c.moreFailures ? [`… and ${c.moreFailures} more`] : []),
    ...c.reasons.map((r) => `! ${r}`),
    ...outsideOf(c).map((o) => `! ${o}`),
  ];
}

function trialsOf(c: CaseSummary): string {
  const parts = [`${c.passed}/${c.passed + c.failed + c.notEvaluated} passed`];
  if (c.notEvaluated > 0) parts.push(`${c.notEvaluated} not evaluated`);
  if (c.notRun > 0) parts.push(`${c.notRun} not run`);
  if (c.skipped > 0) parts.push(`${c.skipped} skipped`);
  return parts.join(", ");
}

/** The run's one-line verdict. */
export function verdictLine(summary: RunSummary): string {
  const head = { pass: "PASS", fail: "FAIL", preliminary: "PRELIMINARY", skipped: "SKIPPED" }[summary.verdict];
  const unevaluated = summary.cases.filter((c) => verdictOf(c) === "NOT EVALUATED").length;
  const cases = `${summary.passed} passed, ${summary.failed} failed${unevaluated > 0 ? ` (${unevaluated} not evaluated)` : ""}${summary.preliminary ? `, ${summary.preliminary} preliminary` : ""}${summary.skipped ? `, ${summary.skipped} skipped` : ""}`;
  const why =
    summary.verdict === "preliminary"
      ? ` (${summary.trials.notRun} trial${summary.trials.notRun === 1 ? "" : "s"} not run${summary.stopped ? `; stopped: ${summary.stopped}` : ""}: not a measurement)`
      : "";
  return `${head}: ${summary.cases.length} case${summary.cases.length === 1 ? "" : "s"} (${cases})${why}`;
}

/**
 * The summary as plain text.
 *
 * @example process.stdout.write(renderSummaryText(summary));
 */
export function renderSummaryText(summary: RunSummary): string {
  const out: string[] = [];
  for (const c of summary.cases) {
    out.push(`${verdictOf(c).padEnd(11)} ${c.case}  [${c.model}]`);
    out.push(
      `            ${trialsOf(c)}; pass rate ${pct(c.passRate)} (threshold ${pct(c.accuracyThreshold)}); pass^${c.k} ${pct(c.passHatK)}, pass@${c.k} ${pct(c.passAtK)}${meanScoreOf(c)}`,
    );
    out.push(`            ${calls(c)}, tokens in/out ${tokens(c.usage)}, ${usd(c.costUsd)}, ${secs(c.durationMs)}`);
    if (judgeOf(c.judge)) out.push(`            ${judgeOf(c.judge)}`);
    if (talkOf(c)) out.push(`            ${talkOf(c)}`);
    for (const line of detailsOf(c)) out.push(`            ${line}`);
    if (c.traces) out.push(`            traces: ${c.traces.join(", ")}`);
  }
  const t = summary.trials;
  out.push("");
  out.push(
    `trials: ${t.total} (${t.passed} passed, ${t.failed} failed, ${t.notEvaluated} not evaluated, ${t.notRun} not run, ${t.skipped} skipped); ${summary.toolCalls} tool calls; tokens in/out ${tokens(summary.usage)}; ${usd(summary.costUsd)}${judgeOf(summary.judge) ? `; ${judgeOf(summary.judge)}` : ""}`,
  );
  for (const note of summary.notes) out.push(note);
  out.push(verdictLine(summary));
  return `${out.join("\n")}\n`;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/**
 * The summary as a Markdown table.
 *
 * @example writeFileSync(process.env.GITHUB_STEP_SUMMARY!, renderSummaryMarkdown(summary));
 */
export function renderSummaryMarkdown(summary: RunSummary): string {
  const out = [
    `### ${verdictLine(summary)}`,
    "",
    "| case | model | verdict | trials | pass rate | threshold | pass^k | pass@k | mean score | tool calls | tokens in/out | cost | time |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...summary.cases.map(
      (c) =>
        `| ${cell(c.case)} | ${cell(c.model)} | ${verdictOf(c)} | ${trialsOf(c)} | ${pct(c.passRate)} | ${pct(c.accuracyThreshold)} | ${pct(c.passHatK)} (k=${c.k}) | ${pct(c.passAtK)} | ${score(c.meanScore)}${c.minScore === undefined ? "" : ` (min ${score(c.minScore)})`} | ${c.toolCalls}${c.badCalls > 0 ? ` (${c.badCalls} bad)` : ""} | ${tokens(c.usage)} | ${usd(c.costUsd)} | ${secs(c.durationMs)} |`,
    ),
    "",
  ];
  for (const c of summary.cases) {
    const lines = [...(talkOf(c) ? [talkOf(c)] : []), ...detailsOf(c)];
    if (lines.length === 0 && !c.traces) continue;
    out.push(`**${cell(c.case)}**`, "");
    for (const line of lines) out.push(`- ${cell(line)}`);
    if (c.traces) out.push(`- traces: ${c.traces.map((t) => `\`${t}\``).join(", ")}`);
    out.push("");
  }
  if (judgeOf(summary.judge)) out.push(`> ${judgeOf(summary.judge)}`, "");
  for (const note of summary.notes) out.push(`> ${cell(note)}`, "");
  return `${out.join("\n")}\n`;
}

/**
 * The summary as JSON (NaN rates as null).
 *
 * @example JSON.parse(renderSummaryJson(summary)).cases[0].passRate
 */
export function renderSummaryJson(summary: RunSummary): string {
  return `${JSON.stringify(summary, (_key, value) => (typeof value === "number" && !Number.isFinite(value) ? null : value), 2)}\n`;
}
