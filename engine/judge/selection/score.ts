/**
 * Scores of a selection run: top-1 (the first tool called is expected), top-k (an expected tool
 * among the first k calls), the same per area, and per-tool precision, recall and F1. A trial
 * that never reached the model (`not_run`) is left out of every score: an infrastructure dropout
 * is not a wrong choice.
 */

/** One trial as scoring reads it. */
export interface SelectionOutcome {
  fixture: string;
  area: string;
  /** `server/tool` ids a good agent picks. */
  expected: readonly string[];
  /** What the model called, in order (`server/tool`, or the name as called when it is not served). */
  chosen: readonly string[];
  /** False for a trial that did not reach the model. */
  scored: boolean;
}

export interface Rate {
  hits: number;
  of: number;
  /** hits / of; 0 when nothing was scored. */
  rate: number;
}

export interface AreaScore {
  area: string;
  top1: Rate;
  topK: Rate;
}

export interface SelectionScore {
  trials: number;
  scored: number;
  notRun: number;
  k: number;
  top1: Rate;
  topK: Rate;
  areas: AreaScore[];
}

const rate = (hits: number, of: number): Rate => ({ hits, of, rate: of === 0 ? 0 : hits / of });

/** Whether the first call is expected. */
export const top1Hit = (o: Pick<SelectionOutcome, "expected" | "chosen">) => o.chosen.length > 0 && o.expected.includes(o.chosen[0]);

/** Whether an expected tool is among the first k calls. */
export const topKHit = (o: Pick<SelectionOutcome, "expected" | "chosen">, k: number) => o.chosen.slice(0, k).some((tool) => o.expected.includes(tool));

/**
 * top-1, top-k and per-area scores; areas in the order given (every area listed, even one with
 * nothing scored), then any other area the outcomes name.
 *
 * @example scoreSelection(outcomes, { k: 3, areas: catalog.areas }).top1.rate
 */
export function scoreSelection(outcomes: readonly SelectionOutcome[], options: { k?: number; areas?: readonly string[] } = {}): SelectionScore {
  const k = options.k ?? 3;
  const scored = outcomes.filter((o) => o.scored);
  const areas = [...new Set([...(options.areas ?? []), ...outcomes.map((o) => o.area)])];
  return {
    trials: outcomes.length,
    scored: scored.length,
    notRun: outcomes.length - scored.length,
    k,
    top1: rate(scored.filter(top1Hit).length, scored.length),
    topK: rate(scored.filter((o) => topKHit(o, k)).length, scored.length),
    areas: areas.map((area) => {
      const mine = scored.filter((o) => o.area === area);
      return { area, top1: rate(mine.filter(top1Hit).length, mine.length), topK: rate(mine.filter((o) => topKHit(o, k)).length, mine.length) };
    }),
  };
}

/** Precision, recall and F1 of one tool over a run's trials. */
export interface ToolMetrics {
  tool: string;
  /** Trials that called it and expected it. */
  truePositives: number;
  /** Trials that called it without expecting it. */
  falsePositives: number;
  /** Trials that expected it and did not call it. */
  falseNegatives: number;
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Per tool, over the scored trials: precision (of the trials that called it, the share that
 * expected it), recall (of the trials that expected it, the share that called it) and F1. A tool
 * never called has precision 0, one never expected recall 0 (and so F1 0).
 *
 * @example toolMetrics(outcomes).find((m) => m.tool === "files/read_text_file")?.f1
 */
export function toolMetrics(outcomes: ReadonlyArray<Pick<SelectionOutcome, "expected" | "chosen" | "scored">>): ToolMetrics[] {
  const counts = new Map<string, { tp: number; fp: number; fn: number }>();
  const of = (tool: string) => counts.get(tool) ?? (counts.set(tool, { tp: 0, fp: 0, fn: 0 }), counts.get(tool)!);
  for (const o of outcomes) {
    if (!o.scored) continue;
    const chosen = new Set(o.chosen);
    const expected = new Set(o.expected);
    for (const tool of chosen) expected.has(tool) ? of(tool).tp++ : of(tool).fp++;
    for (const tool of expected) if (!chosen.has(tool)) of(tool).fn++;
  }
  return [...counts]
    .map(([tool, { tp, fp, fn }]) => {
      const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
      const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
      return {
        tool,
        truePositives: tp,
        falsePositives: fp,
        falseNegatives: fn,
        precision,
        recall,
        f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
      };
    })
    .sort((a, b) => a.tool.localeCompare(b.tool));
}
