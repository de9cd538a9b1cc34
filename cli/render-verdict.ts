import type { Verdict } from "../engine/entries/judge.js";
import { escapeData, escapeProperty } from "./render-diagnostics.js";

const MARK = { passed: "✓", failed: "✗", not_evaluated: "○" } as const;
const WORD = { pass: "PASS", fail: "FAIL", not_evaluated: "NOT EVALUATED", skipped: "SKIPPED" } as const;

/** `score 0.75` (and what was left out or zeroed it), or nothing when no assertion was scored. */
function scoreText(verdict: Verdict): string {
  const s = verdict.score;
  if (s?.score === undefined) return "";
  const notes = [s.zeroedBy ? `zeroed by ${s.zeroedBy}` : "", s.notEvaluated > 0 ? `${s.notEvaluated} not evaluated left out` : ""].filter(Boolean);
  return `; score ${s.score.toFixed(2)}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
}

/** The judge's spend, when it asked a model or read the cache. */
function judgeText(verdict: Verdict): string {
  const j = verdict.judge;
  if (!j || j.cached + j.judged === 0) return "";
  return `judge: ${j.judged} judged, ${j.cached} from the cache; ${j.requests} request${j.requests === 1 ? "" : "s"}, tokens in/out ${j.usage.inputTokens}/${j.usage.outputTokens}, $${j.costUsd.toFixed(4)}\n`;
}

/** One line per assertion (its message), then the verdict with its counts and score. */
export function renderVerdictText(verdict: Verdict): string {
  let out = "";
  for (const r of verdict.results) out += `${MARK[r.status]} ${r.assertion}: ${r.message}\n`;
  const count = (status: keyof typeof MARK) => verdict.results.filter((r) => r.status === status).length;
  return `${out}${judgeText(verdict)}${WORD[verdict.verdict]} ${verdict.case}: ${count("passed")} passed, ${count("failed")} failed, ${count("not_evaluated")} not evaluated (${verdict.durationMs} ms)${scoreText(verdict)}\n`;
}

/** The verdict as JSON: `{ case, verdict, results: [{ assertion, kind, passed, status, message, evidence }], durationMs }`. */
export function renderVerdictJson(verdict: Verdict): string {
  return `${JSON.stringify(verdict, null, 2)}\n`;
}

const xml = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");

/**
 * JUnit XML, as CI systems read it: one testsuite for the case, one testcase per assertion; a
 * failed assertion has a `<failure>` (its evidence as the body), one not evaluated is `<skipped>`.
 */
export function renderVerdictJunit(verdict: Verdict, file: string): string {
  const failures = verdict.results.filter((r) => r.status === "failed").length;
  const skipped = verdict.results.filter((r) => r.status === "not_evaluated").length;
  const seconds = (verdict.durationMs / 1000).toFixed(3);
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n`;
  out += `<testsuites name="eval-simulate verify" tests="${verdict.results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}">\n`;
  out += `  <testsuite name="${xml(verdict.case)}" tests="${verdict.results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}" file="${xml(file)}">\n`;
  if (verdict.score?.score !== undefined) out += `    <properties><property name="score" value="${verdict.score.score}"/></properties>\n`;
  for (const r of verdict.results) {
    out += `    <testcase classname="${xml(verdict.case)}" name="${xml(r.assertion)}" time="0">`;
    if (r.status === "failed") {
      const body = r.evidence === undefined ? r.message : `${r.message}\n${JSON.stringify(r.evidence, null, 2)}`;
      out += `\n      <failure message="${xml(r.message)}" type="${xml(r.kind)}">${xml(body)}</failure>\n    `;
    } else if (r.status === "not_evaluated") {
      out += `\n      <skipped message="${xml(r.message)}"/>\n    `;
    }
    out += `</testcase>\n`;
  }
  return `${out}  </testsuite>\n</testsuites>\n`;
}

/** GitHub Actions annotations: `::error` per failed assertion, `::warning` per one not evaluated, a `::notice` with the verdict. */
export function renderVerdictGithub(verdict: Verdict, file: string): string {
  let out = "";
  for (const r of verdict.results) {
    if (r.status === "passed") continue;
    const level = r.status === "failed" ? "error" : "warning";
    out += `::${level} file=${escapeProperty(file)},title=${escapeProperty(`${verdict.case} ${r.assertion}`)}::${escapeData(r.message)}\n`;
  }
  const failed = verdict.results.filter((r) => r.status === "failed").length;
  return `${out}::notice title=${escapeProperty(`eval-simulate verify ${verdict.case}`)}::${escapeData(`${WORD[verdict.verdict]}: ${verdict.results.length - failed} of ${verdict.results.length} assertions did not fail`)}\n`;
}
