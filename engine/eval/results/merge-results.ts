/**
 * Several results files read as one run (the shards of a CI matrix, a resumed run's files, the
 * same shard downloaded twice): each trial counted once, the files' order irrelevant. A trial
 * judged in one file and not run in another counts as judged (it was rerun); two files judging
 * one trial differently is a conflict, reported, the later line kept. Trials the run planned
 * (`runTrials`) that no file holds make the merged run PRELIMINARY, as a shard that never
 * reported should.
 */
import { DONE_STATUSES, type TrialLine, trialKey } from "./results-file.js";

/** One results file's lines. */
export interface ResultsSource {
  file: string;
  lines: readonly TrialLine[];
}

/** One trial two files judged differently. */
export interface TrialConflict {
  trial: string;
  kept: { file: string; status: TrialLine["status"] };
  dropped: Array<{ file: string; status: TrialLine["status"] }>;
}

/** The merged run. */
export interface MergedRun {
  /** Every trial once, ordered by case id, model and iteration. */
  lines: TrialLine[];
  /** Lines dropped as a second copy of a trial with the same outcome (or superseded by a judged one). */
  duplicates: number;
  conflicts: TrialConflict[];
  /** Trials the run planned, every shard's (when the lines say: `runTrials`). */
  plannedTrials?: number;
  /** Trials the run planned that no file holds. */
  missingTrials: number;
  /**
   * What the report must say about the merge: conflicts, missing trials, mixed versions of the
   * evals file. (A clean merge says nothing, so its report is the one-process report.)
   */
  notes: string[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Lines in the order a report lists them, whatever order they were run or written in: by case
 * id, model and iteration, so the same trials always give the same report.
 *
 * @example orderTrials(lines)[0].case
 */
export function orderTrials(lines: readonly TrialLine[]): TrialLine[] {
  return [...lines].sort((a, b) => byText(a.case, b.case) || byText(a.model, b.model) || a.iteration - b.iteration);
}

const rank = (line: TrialLine) => (DONE_STATUSES.has(line.status) ? 2 : line.status === "not_run" ? 1 : 0);
const endOf = (line: TrialLine) => line.endedAt ?? line.startedAt ?? "";

/** The trials the run planned (per suite, the most any line says; undefined when no line says). */
function plannedOf(lines: readonly TrialLine[]): number | undefined {
  const suites = new Map<string, number>();
  for (const line of lines) if (line.runTrials !== undefined) suites.set(line.suite ?? "", Math.max(suites.get(line.suite ?? "") ?? 0, line.runTrials));
  return suites.size === 0 ? undefined : [...suites.values()].reduce((n, t) => n + t, 0);
}

/** Distinct values of a field, where more than one. */
function mixed(lines: readonly TrialLine[], pick: (line: TrialLine) => string | undefined): string[] {
  const values = [...new Set(lines.flatMap((line) => (pick(line) === undefined ? [] : [pick(line)!])))].sort(byText);
  return values.length > 1 ? values : [];
}

/**
 * Merges results files into one run.
 *
 * @example const merged = mergeResults(files.map((file) => ({ file, lines: readResults(file) })));
 */
export function mergeResults(sources: readonly ResultsSource[]): MergedRun {
  const ordered = [...sources].sort((a, b) => byText(a.file, b.file));
  const candidates = new Map<string, Array<{ file: string; line: TrialLine }>>();
  for (const source of ordered) {
    for (const line of source.lines) {
      const key = trialKey(line);
      candidates.set(key, [...(candidates.get(key) ?? []), { file: source.file, line }]);
    }
  }
  const lines: TrialLine[] = [];
  const conflicts: TrialConflict[] = [];
  let duplicates = 0;
  for (const [key, all] of candidates) {
    const best = Math.max(...all.map((c) => rank(c.line)));
    const top = all.filter((c) => rank(c.line) === best);
    // The later of the best: a rerun's line over an earlier one (ties to the later file name).
    const kept = top.reduce((a, b) => (endOf(b.line) >= endOf(a.line) ? b : a));
    lines.push(kept.line);
    const differing = best === 2 ? top.filter((c) => c.line.status !== kept.line.status) : [];
    if (differing.length > 0)
      conflicts.push({
        trial: key,
        kept: { file: kept.file, status: kept.line.status },
        dropped: differing.map((c) => ({ file: c.file, status: c.line.status })),
      });
    duplicates += all.length - 1 - differing.length;
  }
  const merged = orderTrials(lines);
  const plannedTrials = plannedOf(merged);
  const missingTrials = plannedTrials === undefined ? 0 : Math.max(0, plannedTrials - merged.length);
  const notes: string[] = [];
  if (conflicts.length > 0)
    notes.push(
      `${conflicts.length} trial${conflicts.length === 1 ? " was" : "s were"} judged differently in different files (the later line kept): ${conflicts
        .slice(0, 5)
        .map((c) => c.trial)
        .join(", ")}${conflicts.length > 5 ? ", …" : ""}`,
    );
  if (missingTrials > 0)
    notes.push(
      `${missingTrials} planned trial${missingTrials === 1 ? " has" : "s have"} no line in these results (a shard not merged, or a run stopped before them)`,
    );
  const versions = mixed(merged, (line) => line.evalsSha256);
  if (versions.length > 0)
    notes.push(`the lines come from ${versions.length} versions of the evals file (sha256 ${versions.map((v) => v.slice(0, 12)).join(", ")}): not one run`);
  const splits = mixed(merged, (line) => line.shard?.split("/")[1]);
  if (splits.length > 0) notes.push(`the lines come from different splits (into ${splits.join(" and ")} shards): trials may be missing or doubled`);
  return { lines: merged, duplicates, conflicts, ...(plannedTrials !== undefined ? { plannedTrials } : {}), missingTrials, notes };
}
