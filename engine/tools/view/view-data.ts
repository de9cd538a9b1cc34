/**
 * What the viewer shows of finished runs, computed once on the Node side so the page only draws:
 * each run's summary (per-case pass rate, pass^k over k, mean score, cost, tokens, time), its
 * trials as the results files hold them, its tool-selection scores when it has selection lines,
 * and the comparison of the first two runs. The trial lines are untrusted; the page escapes them.
 */
import { compareRuns, type Comparison, type RunSummary, summarize, type TrialLine } from "../../eval/results/index.js";
import { scoreSelection, toolMetrics, type AreaScore, type SelectionOutcome, type ToolMetrics } from "../../judge/selection/index.js";

/** One run as the viewer shows it. */
export interface ViewRun {
  /** What the run is called on the page: its variant, else the file it came from. */
  label: string;
  files: string[];
  summary: RunSummary;
  /** pass^k for k = 1 … the judged trials, per case and model (`case@model`). */
  curves: Record<string, number[]>;
  trials: TrialLine[];
  selection?: ViewSelection;
}

/** A tool-selection run's scores: per tool, per area, and the expected → chosen pairs per area. */
export interface ViewSelection {
  tools: ToolMetrics[];
  areas: AreaScore[];
  top1: number;
  confusion: Array<{ area: string; expected: string; chosen: string; count: number }>;
}

/** Everything the viewer page reads, embedded in the page or served as JSON. */
export interface ViewData {
  runs: ViewRun[];
  /** The first run against the second, when there are two or more. */
  comparison?: Comparison;
  generatedAt: string;
}

type SelectionLine = TrialLine & { kind?: string; area?: string; expected?: string[]; chosen?: string[] };

/**
 * pass^k for k = 1 … n of a case's judged trials: each point from the one before
 * (pass^k = pass^(k-1) · (c-k+1)/(n-k+1)), so a case of thousands of trials costs n steps, not n².
 */
function curve(lines: readonly TrialLine[]): number[] {
  const judged = lines.filter((l) => l.status === "pass" || l.status === "fail" || l.status === "not_evaluated");
  const n = judged.length;
  const c = judged.filter((l) => l.status === "pass").length;
  const points: number[] = [];
  let point = 1;
  for (let k = 1; k <= n; k++) points.push((point = k > c ? 0 : (point * (c - k + 1)) / (n - k + 1)));
  return points;
}

function selectionOf(lines: readonly SelectionLine[]): ViewSelection | undefined {
  const picks = lines.filter((l) => l.kind === "selection");
  if (picks.length === 0) return undefined;
  const outcomes: SelectionOutcome[] = picks.map((l) => ({
    fixture: l.case,
    area: l.area ?? "",
    expected: l.expected ?? [],
    chosen: l.chosen ?? [],
    scored: l.status === "pass" || l.status === "fail",
  }));
  const pairs = new Map<string, { area: string; expected: string; chosen: string; count: number }>();
  for (const o of outcomes) {
    if (!o.scored) continue;
    const chosen = o.chosen[0] ?? "(none)";
    // A fixture with several right tools counts as the one chosen when it was among them.
    const expected = o.expected.includes(chosen) ? chosen : (o.expected[0] ?? "(none)");
    const key = JSON.stringify([o.area, expected, chosen]);
    const pair = pairs.get(key) ?? { area: o.area, expected, chosen, count: 0 };
    pair.count++;
    pairs.set(key, pair);
  }
  const score = scoreSelection(outcomes);
  return { tools: toolMetrics(outcomes), areas: score.areas, top1: score.top1.rate, confusion: [...pairs.values()] };
}

/**
 * The viewer's data for runs already read (each run's trial lines, merged as `report` merges
 * shards).
 *
 * @example const data = viewData([{ files: ["base.ndjson"], lines: readResults("base.ndjson") }]);
 */
export function viewData(runs: ReadonlyArray<{ files: string[]; lines: TrialLine[] }>): ViewData {
  const viewRuns = runs.map(({ files, lines }): ViewRun => {
    const byCase = new Map<string, TrialLine[]>();
    for (const line of lines) {
      const key = `${line.case}@${line.model}`;
      const trials = byCase.get(key);
      if (trials) trials.push(line);
      else byCase.set(key, [line]);
    }
    const selection = selectionOf(lines);
    return {
      label: lines.find((l) => l.variant)?.variant ?? files.join(", "),
      files,
      summary: summarize(lines),
      curves: Object.fromEntries([...byCase].map(([key, trials]) => [key, curve(trials)])),
      trials: lines,
      ...(selection ? { selection } : {}),
    };
  });
  const comparison =
    runs.length >= 2 ? compareRuns(runs[0].lines, runs[1].lines, { labels: { baseline: viewRuns[0].label, candidate: viewRuns[1].label } }) : undefined;
  return { runs: viewRuns, ...(comparison ? { comparison } : {}), generatedAt: new Date().toISOString() };
}
