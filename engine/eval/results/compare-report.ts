/** A comparison of two runs as text, markdown or JSON (`eval-simulate compare`). */
import type { Comparison, RunSide, ToolDelta } from "./compare.js";

const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const signed = (value: number, digits = 3) => `${value > 0 ? "+" : value < 0 ? "−" : "±"}${Math.abs(value).toFixed(digits)}`;
const changed = (t: ToolDelta) => t.delta.precision !== 0 || t.delta.recall !== 0 || t.delta.f1 !== 0;
const score = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(2));
const hasScores = (c: Comparison) => !Number.isNaN(c.baseline.meanScore) || !Number.isNaN(c.candidate.meanScore);
/** Cases whose mean score moved, `case 0.50 → 0.75 (+0.25)`. */
const scoreMoves = (c: Comparison) =>
  c.cases
    .filter((k) => k.scoreDelta !== undefined && Math.abs(k.scoreDelta) > 1e-9)
    .map((k) => `${k.case} ${score(k.baseline!.meanScore!)} → ${score(k.candidate!.meanScore!)} (${signed(k.scoreDelta!, 2)})`);
const bad = (s: RunSide) =>
  s.badCalls ? `${s.badCalls.total} (repeated ${s.badCalls.repeatedAfterError}, refused ${s.badCalls.schemaRefused}, insistence ${s.badCalls.insistence})` : "";

/** The comparison as plain text. */
export function renderCompareText(c: Comparison): string {
  const lines = [
    `${c.baseline.label} → ${c.candidate.label}`,
    `  pass rate  ${c.baseline.passes}/${c.baseline.scored} ${pct(c.baseline.passRate)} → ${c.candidate.passes}/${c.candidate.scored} ${pct(c.candidate.passRate)}  (${signed(c.passRateDelta * 100, 1)} points; noise ±${Number.isFinite(c.noise) ? (c.noise * 100).toFixed(1) : "∞"})`,
  ];
  if (hasScores(c))
    lines.push(
      `  mean score ${score(c.baseline.meanScore)} → ${score(c.candidate.meanScore)}${Number.isNaN(c.meanScoreDelta) ? "" : `  (${signed(c.meanScoreDelta, 2)})`}`,
    );
  if (c.baseline.badCalls || c.candidate.badCalls) lines.push(`  bad calls  ${bad(c.baseline) || "-"} → ${bad(c.candidate) || "-"}`);
  const tools = c.tools.filter(changed);
  if (tools.length > 0) {
    const width = Math.max(...tools.map((t) => t.tool.length));
    lines.push(
      "  tools (precision / recall / F1):",
      ...tools.map(
        (t) =>
          `    ${t.tool.padEnd(width)}  P ${t.baseline.precision.toFixed(3)} → ${t.candidate.precision.toFixed(3)} (${signed(t.delta.precision)})  R ${t.baseline.recall.toFixed(3)} → ${t.candidate.recall.toFixed(3)} (${signed(t.delta.recall)})  F1 ${t.baseline.f1.toFixed(3)} → ${t.candidate.f1.toFixed(3)} (${signed(t.delta.f1)})`,
      ),
    );
  }
  const moves = scoreMoves(c);
  if (moves.length > 0) lines.push(`  scores moved (${moves.length}): ${moves.join(", ")}`);
  lines.push(
    `  improved (${c.improved.length}): ${c.improved.join(", ") || "none"}`,
    `  regressed (${c.regressed.length}): ${c.regressed.join(", ") || "none"}`,
    `  unchanged, failing (${c.unchangedFailing.length}): ${c.unchangedFailing.join(", ") || "none"}`,
  );
  lines.push(`proposal: ${c.proposal.decision}: ${c.proposal.reason}`);
  return `${lines.join("\n")}\n`;
}

/** The comparison as markdown (a pull request comment, a job summary). */
export function renderCompareMarkdown(c: Comparison): string {
  const out = [
    `## ${c.baseline.label} → ${c.candidate.label}: **${c.proposal.decision}**`,
    "",
    c.proposal.reason,
    "",
    "| | baseline | candidate | delta |",
    "| --- | --- | --- | --- |",
    `| pass rate | ${c.baseline.passes}/${c.baseline.scored} (${pct(c.baseline.passRate)}) | ${c.candidate.passes}/${c.candidate.scored} (${pct(c.candidate.passRate)}) | ${signed(c.passRateDelta * 100, 1)} points |`,
  ];
  if (hasScores(c))
    out.push(
      `| mean score | ${score(c.baseline.meanScore)} | ${score(c.candidate.meanScore)} | ${Number.isNaN(c.meanScoreDelta) ? "" : signed(c.meanScoreDelta, 2)} |`,
    );
  if (c.baseline.badCalls || c.candidate.badCalls) out.push(`| bad calls | ${c.baseline.badCalls?.total ?? "-"} | ${c.candidate.badCalls?.total ?? "-"} | |`);
  const tools = c.tools.filter(changed);
  if (tools.length > 0) {
    out.push("", "| tool | precision | recall | F1 |", "| --- | --- | --- | --- |");
    for (const t of tools)
      out.push(
        `| ${t.tool} | ${t.baseline.precision.toFixed(3)} → ${t.candidate.precision.toFixed(3)} | ${t.baseline.recall.toFixed(3)} → ${t.candidate.recall.toFixed(3)} | ${t.baseline.f1.toFixed(3)} → ${t.candidate.f1.toFixed(3)} (${signed(t.delta.f1)}) |`,
      );
  }
  const moves = scoreMoves(c);
  out.push(
    "",
    ...(moves.length > 0 ? [`- scores moved: ${moves.join(", ")}`] : []),
    `- improved: ${c.improved.join(", ") || "none"}`,
    `- regressed: ${c.regressed.join(", ") || "none"}`,
    `- unchanged, failing: ${c.unchangedFailing.join(", ") || "none"}`,
  );
  return `${out.join("\n")}\n`;
}

/** The comparison as JSON. */
export function renderCompareJson(c: Comparison): string {
  return `${JSON.stringify(c, (_key, value) => (typeof value === "number" && !Number.isFinite(value) ? null : value), 2)}\n`;
}
