/**
 * A selection run's report: coverage, top-1/top-k overall and per area, the gate, the tools most
 * often confused, as text, markdown or JSON. A run with trials that never reached the model (or
 * that stopped early) is PRELIMINARY: its gate must not be decided on, and it exits 2.
 */
import { evaluateGate, type Gate, type GateThresholds } from "../../judge/selection/index.js";
import type { SelectionLine } from "./run-selection.js";
import { type SelectionScore, scoreSelection, type ToolMetrics, toolMetrics } from "../../judge/selection/index.js";

export interface SelectionSummary {
  model: string;
  variant?: string;
  score: SelectionScore;
  gate: Gate;
  /** Per-tool precision/recall/F1, lowest F1 first. */
  tools: ToolMetrics[];
  /** Misses: what was expected and what the model called instead, most frequent first. */
  confusions: Array<{ expected: string; chosen: string; count: number }>;
  /** Trials not run (infrastructure) and never started (budget, fatal error). */
  notRun: number;
  unstarted: number;
  preliminary: boolean;
  stopped?: string;
  fatal?: string;
  costUsd: number;
  /** 0 for a complete run, 2 for a PRELIMINARY one. */
  exitCode: number;
}

/**
 * Scores the lines of one run (one model, one variant) and decides the gate.
 *
 * @example const summary = summarizeSelection(lines, { k: 3, areas: catalog.areas, gate: { remediate: 0.85, watch: 0.9 } });
 */
export function summarizeSelection(
  lines: readonly SelectionLine[],
  options: {
    k?: number;
    areas?: readonly string[];
    gate?: GateThresholds;
    model: string;
    variant?: string;
    unstarted?: number;
    stopped?: string;
    fatal?: string;
  },
): SelectionSummary {
  const outcomes = lines.map((l) => ({
    fixture: l.case,
    area: l.area,
    expected: l.expected,
    chosen: l.chosen,
    scored: l.status === "pass" || l.status === "fail",
  }));
  const score = scoreSelection(outcomes, { k: options.k, areas: options.areas });
  const confusions = new Map<string, number>();
  for (const o of outcomes) {
    if (!o.scored || o.chosen.length === 0 || o.expected.includes(o.chosen[0])) continue;
    const key = `${o.expected[0]}\u0000${o.chosen[0]}`;
    confusions.set(key, (confusions.get(key) ?? 0) + 1);
  }
  const unstarted = options.unstarted ?? 0;
  const preliminary = score.notRun > 0 || unstarted > 0 || options.stopped !== undefined;
  return {
    model: options.model,
    ...(options.variant ? { variant: options.variant } : {}),
    score,
    gate: evaluateGate(score.top1.rate, options.gate),
    tools: toolMetrics(outcomes).sort((a, b) => a.f1 - b.f1 || a.tool.localeCompare(b.tool)),
    confusions: [...confusions]
      .map(([key, count]) => ({ expected: key.split("\u0000")[0], chosen: key.split("\u0000")[1], count }))
      .sort((a, b) => b.count - a.count || a.expected.localeCompare(b.expected)),
    notRun: score.notRun,
    unstarted,
    preliminary,
    ...(options.stopped ? { stopped: options.stopped } : {}),
    ...(options.fatal ? { fatal: options.fatal } : {}),
    costUsd: lines.reduce((sum, l) => sum + (l.costUsd ?? 0), 0),
    exitCode: preliminary ? 2 : 0,
  };
}

const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;

function warnings(s: SelectionSummary): string[] {
  const out: string[] = [];
  if (s.preliminary) {
    const why = [
      s.notRun > 0 ? `${s.notRun} trial${s.notRun === 1 ? "" : "s"} did not reach the model (not scored)` : "",
      s.unstarted > 0
        ? `${s.unstarted} never started (${s.stopped === "budget" ? "the budget" : s.stopped === "fatal" ? "a fatal error" : "the run was stopped"})`
        : "",
    ].filter(Boolean);
    out.push(`PRELIMINARY: ${why.join("; ") || "the run stopped early"}; do not decide on this gate. Run again with the same --out to resume.`);
  }
  if (s.fatal) out.push(`stopped: ${s.fatal}`);
  return out;
}

/** The report as plain text. */
export function renderSelectionText(s: SelectionSummary): string {
  const { score } = s;
  const width = Math.max(4, ...score.areas.map((a) => a.area.length));
  const lines = [
    `Tool selection: ${s.model}${s.variant ? ` (variant ${s.variant})` : ""}: ${score.scored} of ${score.trials + s.unstarted} trials scored${score.notRun ? `, ${score.notRun} not run` : ""}${s.unstarted ? `, ${s.unstarted} not started` : ""}`,
    `  top-1  ${String(score.top1.hits).padStart(3)}/${score.top1.of}  ${pct(score.top1.rate)}`,
    `  top-${score.k}  ${String(score.topK.hits).padStart(3)}/${score.topK.of}  ${pct(score.topK.rate)}`,
    "  by area:",
    ...score.areas.map(
      (a) =>
        `    ${a.area.padEnd(width)}  top-1 ${String(a.top1.hits).padStart(2)}/${a.top1.of} ${pct(a.top1.rate).padStart(6)}   top-${score.k} ${String(a.topK.hits).padStart(2)}/${a.topK.of} ${pct(a.topK.rate).padStart(6)}`,
    ),
    `  gate: ${s.gate.decision}${s.preliminary ? " (PRELIMINARY)" : ""}: top-1 ${pct(s.gate.top1)} (remediate below ${pct(s.gate.remediate)}, watch below ${pct(s.gate.watch)})`,
    `    ${s.gate.recommendation}`,
  ];
  if (s.confusions.length > 0)
    lines.push("  most confused (expected → called):", ...s.confusions.slice(0, 5).map((c) => `    ${c.expected} → ${c.chosen}  ×${c.count}`));
  lines.push(`  spent $${s.costUsd.toFixed(4)}`);
  for (const w of warnings(s)) lines.push(w);
  return `${lines.join("\n")}\n`;
}

/** The report as markdown (a CI job summary). */
export function renderSelectionMarkdown(s: SelectionSummary): string {
  const { score } = s;
  const out = [
    `## Tool selection: ${s.model}${s.variant ? ` (variant \`${s.variant}\`)` : ""}${s.preliminary ? " — PRELIMINARY" : ""}`,
    "",
    `${score.scored} of ${score.trials + s.unstarted} trials scored${score.notRun ? `, ${score.notRun} not run` : ""}${s.unstarted ? `, ${s.unstarted} not started` : ""}.`,
    "",
    `| area | top-1 | top-${score.k} |`,
    "| --- | --- | --- |",
    `| **all** | ${score.top1.hits}/${score.top1.of} (${pct(score.top1.rate)}) | ${score.topK.hits}/${score.topK.of} (${pct(score.topK.rate)}) |`,
    ...score.areas.map((a) => `| ${a.area} | ${a.top1.hits}/${a.top1.of} (${pct(a.top1.rate)}) | ${a.topK.hits}/${a.topK.of} (${pct(a.topK.rate)}) |`),
    "",
    `**Gate: ${s.gate.decision}** — ${s.gate.recommendation}`,
  ];
  if (s.confusions.length > 0)
    out.push(
      "",
      "| expected | called instead | times |",
      "| --- | --- | --- |",
      ...s.confusions.slice(0, 10).map((c) => `| ${c.expected} | ${c.chosen} | ${c.count} |`),
    );
  for (const w of warnings(s)) out.push("", `> ${w}`);
  return `${out.join("\n")}\n`;
}

/** The report as JSON. */
export function renderSelectionJson(s: SelectionSummary): string {
  return `${JSON.stringify(s, null, 2)}\n`;
}
