/**
 * Two runs of the same dataset compared (a baseline and a candidate, say a variant's): pass-rate
 * and mean-score deltas, per-tool precision/recall/F1 deltas, cases improved, regressed and still failing, bad
 * calls, and a proposal. The noise rule: the candidate is applied only when its pass rate beats
 * the baseline's by more than z (1.96: 95 %) standard errors of the difference of two
 * proportions (pooled), rejected when it loses by as much, and inconclusive otherwise, or when
 * either run lost trials to infrastructure (PRELIMINARY) or scored none.
 */
import type { TrialLine } from "./results-file.js";
import type { RecordedCall } from "../../core/record/index.js";
import { type BadCallCounts, badCalls } from "../../judge/selection/index.js";
import { type ToolMetrics, toolMetrics } from "../../judge/selection/index.js";

/** A results line as compare reads it: a selection line, or an eval trial (its record gives the calls). */
type ComparedLine = TrialLine & { expected?: string[]; chosen?: string[]; variant?: string };

export interface RunSide {
  label: string;
  trials: number;
  /** Trials judged pass or fail. */
  scored: number;
  passes: number;
  passRate: number;
  /** The mean score of the judged trials that have one (NaN when none has). */
  meanScore: number;
  /** Trials lost to infrastructure, never scored. */
  notRun: number;
  tools: ToolMetrics[];
  /** Summed over the trials with a record; undefined when none has one. */
  badCalls?: BadCallCounts;
}

export type CaseChangeKind = "improved" | "regressed" | "unchanged-passing" | "unchanged-failing" | "only-baseline" | "only-candidate";

/** One side of a case: passes of the scored trials, the mean score, bad calls. */
export interface CaseSide {
  passes: number;
  of: number;
  meanScore?: number;
  badCalls?: number;
}

export interface CaseChange {
  case: string;
  baseline?: CaseSide;
  candidate?: CaseSide;
  change: CaseChangeKind;
  /** candidate − baseline mean score, when both sides have one. */
  scoreDelta?: number;
}

export interface ToolDelta {
  tool: string;
  baseline: Pick<ToolMetrics, "precision" | "recall" | "f1">;
  candidate: Pick<ToolMetrics, "precision" | "recall" | "f1">;
  delta: { precision: number; recall: number; f1: number };
}

export interface Proposal {
  decision: "apply" | "reject" | "inconclusive";
  reason: string;
}

export interface Comparison {
  baseline: RunSide;
  candidate: RunSide;
  passRateDelta: number;
  /** candidate − baseline mean score (NaN when a side has no scores). */
  meanScoreDelta: number;
  /** The noise margin: z standard errors of the difference. */
  noise: number;
  z: number;
  tools: ToolDelta[];
  cases: CaseChange[];
  improved: string[];
  regressed: string[];
  unchangedFailing: string[];
  proposal: Proposal;
}

const scoredStatus = (l: TrialLine) => l.status === "pass" || l.status === "fail";
/** The scores of judged trials, as the run's summary averages them. */
const scoresOf = (lines: readonly TrialLine[]) =>
  lines.filter((l) => (scoredStatus(l) || l.status === "not_evaluated") && typeof l.score === "number").map((l) => l.score!);
const mean = (xs: readonly number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The MCP tools an eval trial called, from its record (`server/tool`). */
function calledTools(line: ComparedLine): string[] | undefined {
  if (line.chosen) return line.chosen;
  const record = line.session?.record as RecordedCall[] | undefined;
  if (!record) return undefined;
  return record.map((call) => ("server" in call ? `${call.server}/${call.tool}` : `${call.api}/${call.operation}`));
}

function side(lines: readonly ComparedLine[], label: string): RunSide {
  const scored = lines.filter(scoredStatus);
  const passes = scored.filter((l) => l.status === "pass").length;
  const outcomes = lines.flatMap((l) => {
    const chosen = calledTools(l);
    return l.expected && chosen ? [{ expected: l.expected, chosen, scored: scoredStatus(l) }] : [];
  });
  const withRecord = lines.filter((l) => Array.isArray(l.session?.record));
  let bad: BadCallCounts | undefined;
  if (withRecord.length > 0) {
    bad = { repeatedAfterError: 0, schemaRefused: 0, insistence: 0, total: 0 };
    for (const l of withRecord) {
      const counts = badCalls(l.session!.record as RecordedCall[]);
      bad.repeatedAfterError += counts.repeatedAfterError;
      bad.schemaRefused += counts.schemaRefused;
      bad.insistence += counts.insistence;
      bad.total += counts.total;
    }
  }
  return {
    label,
    trials: lines.length,
    scored: scored.length,
    passes,
    passRate: scored.length === 0 ? 0 : passes / scored.length,
    meanScore: mean(scoresOf(lines)),
    notRun: lines.filter((l) => l.status === "not_run").length,
    tools: toolMetrics(outcomes),
    ...(bad ? { badCalls: bad } : {}),
  };
}

function perCase(lines: readonly ComparedLine[]): Map<string, CaseSide> {
  const cases = new Map<string, CaseSide>();
  for (const l of lines) {
    const entry = cases.get(l.case) ?? { passes: 0, of: 0 };
    if (scoredStatus(l)) {
      entry.of++;
      if (l.status === "pass") entry.passes++;
    }
    if (Array.isArray(l.session?.record)) entry.badCalls = (entry.badCalls ?? 0) + badCalls(l.session!.record as RecordedCall[]).total;
    cases.set(l.case, entry);
  }
  for (const [id, entry] of cases) {
    const score = mean(scoresOf(lines.filter((l) => l.case === id)));
    if (!Number.isNaN(score)) entry.meanScore = score;
  }
  return cases;
}

const ZERO = { precision: 0, recall: 0, f1: 0 };
const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/**
 * Compares a candidate run with a baseline run (each its results lines).
 *
 * @example const comparison = compareRuns(readResults("base.ndjson"), readResults("candidate.ndjson"));
 */
export function compareRuns(
  baselineLines: readonly TrialLine[],
  candidateLines: readonly TrialLine[],
  options: { labels?: { baseline?: string; candidate?: string }; z?: number } = {},
): Comparison {
  const z = options.z ?? 1.96;
  const labelOf = (lines: readonly ComparedLine[], fallback: string) => lines.find((l) => l.variant)?.variant ?? fallback;
  const baseline = side(baselineLines, options.labels?.baseline ?? labelOf(baselineLines, "baseline"));
  const candidate = side(candidateLines, options.labels?.candidate ?? labelOf(candidateLines, "candidate"));
  const passRateDelta = candidate.passRate - baseline.passRate;
  const pooled = baseline.scored + candidate.scored === 0 ? 0 : (baseline.passes + candidate.passes) / (baseline.scored + candidate.scored);
  const noise =
    baseline.scored === 0 || candidate.scored === 0 ? Infinity : z * Math.sqrt(pooled * (1 - pooled) * (1 / baseline.scored + 1 / candidate.scored));

  const toolNames = [...new Set([...baseline.tools, ...candidate.tools].map((t) => t.tool))].sort();
  const pick = (metrics: ToolMetrics | undefined) => (metrics ? { precision: metrics.precision, recall: metrics.recall, f1: metrics.f1 } : ZERO);
  const tools = toolNames.map((tool) => {
    const b = pick(baseline.tools.find((t) => t.tool === tool));
    const c = pick(candidate.tools.find((t) => t.tool === tool));
    return { tool, baseline: b, candidate: c, delta: { precision: c.precision - b.precision, recall: c.recall - b.recall, f1: c.f1 - b.f1 } };
  });

  const before = perCase(baselineLines);
  const after = perCase(candidateLines);
  const cases: CaseChange[] = [...new Set([...before.keys(), ...after.keys()])].map((id) => {
    const b = before.get(id);
    const c = after.get(id);
    let change: CaseChangeKind;
    if (!c) change = "only-baseline";
    else if (!b) change = "only-candidate";
    else {
      const rb = b.of === 0 ? 0 : b.passes / b.of;
      const rc = c.of === 0 ? 0 : c.passes / c.of;
      change = rc > rb ? "improved" : rc < rb ? "regressed" : rc === 1 ? "unchanged-passing" : "unchanged-failing";
    }
    const scoreDelta = b?.meanScore !== undefined && c?.meanScore !== undefined ? c.meanScore - b.meanScore : undefined;
    return { case: id, ...(b ? { baseline: b } : {}), ...(c ? { candidate: c } : {}), change, ...(scoreDelta === undefined ? {} : { scoreDelta }) };
  });
  const named = (kind: CaseChangeKind) => cases.filter((c) => c.change === kind).map((c) => c.case);
  const improved = named("improved");
  const regressed = named("regressed");

  let proposal: Proposal;
  const delta = `pass rate ${pct(baseline.passRate)} → ${pct(candidate.passRate)} (${passRateDelta >= 0 ? "+" : ""}${(passRateDelta * 100).toFixed(1)} points)`;
  if (baseline.notRun > 0 || candidate.notRun > 0) {
    proposal = {
      decision: "inconclusive",
      reason: `${delta}, but ${baseline.notRun + candidate.notRun} trials were not run: a PRELIMINARY run decides nothing; resume it first`,
    };
  } else if (!Number.isFinite(noise)) {
    proposal = { decision: "inconclusive", reason: "a run has no scored trials" };
  } else if (passRateDelta > noise) {
    proposal = {
      decision: "apply",
      reason: `${delta}, beyond the noise (±${(noise * 100).toFixed(1)} points at z=${z})${regressed.length ? `; check the ${regressed.length} regressed case${regressed.length === 1 ? "" : "s"}: ${regressed.join(", ")}` : ""}`,
    };
  } else if (passRateDelta < -noise) {
    proposal = { decision: "reject", reason: `${delta}, worse beyond the noise (±${(noise * 100).toFixed(1)} points at z=${z})` };
  } else {
    proposal = {
      decision: "inconclusive",
      reason: `${delta} is inside the noise (±${(noise * 100).toFixed(1)} points at z=${z}, ${baseline.scored} and ${candidate.scored} trials): run more iterations`,
    };
  }
  return {
    baseline,
    candidate,
    passRateDelta,
    meanScoreDelta: candidate.meanScore - baseline.meanScore,
    noise,
    z,
    tools,
    cases,
    improved,
    regressed,
    unchangedFailing: named("unchanged-failing"),
    proposal,
  };
}
