/**
 * The gate on top-1 accuracy: below `remediate` the catalog needs work, between `remediate` and
 * `watch` it is worth watching, at or above `watch` it is fine. The decision is only as good as
 * the run: a PRELIMINARY run (fixtures that never reached the model) must not be decided on.
 */

export type GateDecision = "remediate" | "watch" | "fine";

export interface GateThresholds {
  /** Below this top-1 accuracy: remediate (default 0.85). */
  remediate?: number;
  /** Below this (and at or above `remediate`): watch (default 0.90). */
  watch?: number;
}

export interface Gate {
  decision: GateDecision;
  top1: number;
  remediate: number;
  watch: number;
  /** What to do about it, in one sentence or two. */
  recommendation: string;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/**
 * The gate's decision and recommendation for a top-1 accuracy (0..1).
 *
 * @example evaluateGate(0.88, { remediate: 0.85, watch: 0.90 }).decision // "watch"
 */
export function evaluateGate(top1: number, thresholds: GateThresholds = {}): Gate {
  const remediate = thresholds.remediate ?? 0.85;
  const watch = thresholds.watch ?? 0.9;
  for (const [name, value] of [
    ["remediate", remediate],
    ["watch", watch],
    ["top-1", top1],
  ] as const) {
    if (!Number.isFinite(value) || value < 0 || value > 1) throw new RangeError(`[eval-simulate] the gate's ${name} is a share between 0 and 1, not ${value}`);
  }
  if (remediate > watch) throw new RangeError(`[eval-simulate] the gate's remediate threshold (${remediate}) is above its watch threshold (${watch})`);
  if (top1 < remediate) {
    return {
      decision: "remediate",
      top1,
      remediate,
      watch,
      recommendation: `Remediate the catalog: top-1 ${percent(top1)} is below ${percent(remediate)}. Rewrite the descriptions of the tools picked in each other's place (the lowest per-tool precision and recall), merge near-twins, or offer fewer tools at once; try each change as a --variant and compare it with this run.`,
    };
  }
  if (top1 < watch) {
    return {
      decision: "watch",
      top1,
      remediate,
      watch,
      recommendation: `Keep watching: top-1 ${percent(top1)} is between ${percent(remediate)} and ${percent(watch)}. Run these fixtures again after the next change to a tool or its description.`,
    };
  }
  return {
    decision: "fine",
    top1,
    remediate,
    watch,
    recommendation: `No catalog work needed: top-1 ${percent(top1)} is at or above ${percent(watch)}. Keep the fixtures in the tests so a renamed or dropped tool still fails them.`,
  };
}
