/**
 * A run as JUnit XML, which CI systems show as test results: one test suite per case and model,
 * one test case per trial (a failure with the failed assertions; a trial not run or skipped as
 * skipped, with the reason); scores as properties (the case's mean score, each trial's score).
 */
import type { TrialLine } from "./results-file.js";
import type { RunSummary } from "./run-summary.js";

const xml = (text: string) =>
  text
    .replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

/**
 * JUnit XML of the trials, grouped by the summary's cases.
 *
 * @example writeFileSync("junit.xml", renderJunit(summary, lines));
 */
export function renderJunit(summary: RunSummary, lines: readonly TrialLine[], name = "eval-simulate"): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const t = summary.trials;
  out.push(
    `<testsuites name="${xml(name)}" tests="${t.total}" failures="${t.failed + t.notEvaluated}" skipped="${t.notRun + t.skipped}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
  );
  for (const c of summary.cases) {
    const trials = lines.filter((l) => l.case === c.case && l.model === c.model).sort((a, b) => a.iteration - b.iteration);
    const missing = Math.max(0, c.iterations - trials.length);
    out.push(
      `  <testsuite name="${xml(`${c.case} [${c.model}]`)}" tests="${c.iterations}" failures="${c.failed + c.notEvaluated}" skipped="${c.notRun + c.skipped}" time="${(c.durationMs / 1000).toFixed(3)}">`,
    );
    const properties = [...(Number.isNaN(c.meanScore) ? [] : [["meanScore", c.meanScore]]), ...(c.minScore === undefined ? [] : [["minScore", c.minScore]])];
    if (properties.length > 0)
      out.push(`    <properties>${properties.map(([name, value]) => `<property name="${name}" value="${value}"/>`).join("")}</properties>`);
    for (const trial of trials) {
      out.push(`    <testcase classname="${xml(c.case)}" name="${xml(`${c.case} #${trial.iteration + 1}`)}" time="${(trial.durationMs / 1000).toFixed(3)}">`);
      const properties = [
        ...(typeof trial.score === "number" ? [`<property name="score" value="${trial.score}"/>`] : []),
        ...(trial.traceId ? [`<property name="traceId" value="${xml(trial.traceId)}"/>`] : []),
      ];
      if (properties.length > 0) out.push(`      <properties>${properties.join("")}</properties>`);
      if (trial.status === "fail" || trial.status === "not_evaluated") {
        const bad = (trial.assertions as Array<{ status?: string; assertion?: string; message?: string }>).filter((a) => a.status !== "passed");
        const message = trial.reason ?? bad[0]?.message ?? trial.status;
        out.push(`      <failure message="${xml(message)}" type="${trial.status}">${xml(bad.map((a) => `${a.assertion}: ${a.message}`).join("\n"))}</failure>`);
      } else if (trial.status === "not_run" || trial.status === "skipped") {
        out.push(`      <skipped message="${xml(`${trial.status === "not_run" ? "not run" : "skipped"}: ${trial.reason ?? ""}`)}"/>`);
      }
      out.push("    </testcase>");
    }
    for (let i = 0; i < missing; i++)
      out.push(
        `    <testcase classname="${xml(c.case)}" name="${xml(`${c.case} (not started)`)}"><skipped message="not run${summary.stopped ? `: ${xml(summary.stopped)}` : ""}"/></testcase>`,
      );
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return `${out.join("\n")}\n`;
}
