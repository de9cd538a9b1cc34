import type { FaultManifest } from "../../author/model/index.js";

/**
 * A small seeded generator (mulberry32): the same seed gives the same draws on every run.
 *
 * @example const next = seededDraws(7); next(); // 0 ≤ n < 1, the same every run
 */
export function seededDraws(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the faults do to one call. */
export interface FaultEffect {
  latencyMs: number;
  http?: FaultManifest["http"];
}

/**
 * A scenario's faults. Each fault draws from its own seeded sequence, one draw per matching
 * call, so a run's latencies and failures are the same every time for the same calls.
 *
 * @example const faults = new FaultSet(scenario.faults); const { latencyMs } = faults.effect("notes", "create-note");
 */
export class FaultSet {
  private readonly live: Array<{ fault: FaultManifest; next: () => number }>;

  /** `seed` (a session's) is mixed into each fault's own, so trial k draws the same every run; 0 keeps the fault's. */
  constructor(faults: readonly FaultManifest[], seed = 0) {
    this.live = faults.map((fault) => ({ fault, next: seededDraws(seed === 0 ? fault.seed : Math.imul(fault.seed ^ seed, 0x9e3779b1) ^ seed) }));
  }

  effect(fake: string, target: string | readonly string[]): FaultEffect {
    const targets = typeof target === "string" ? [target] : target;
    const effect: FaultEffect = { latencyMs: 0 };
    for (const { fault, next } of this.live) {
      if (fault.fake !== fake || (fault.target !== "*" && !targets.includes(fault.target))) continue;
      const hits = fault.rate >= 1 || next() < fault.rate;
      if (!hits) continue;
      if (Array.isArray(fault.latencyMs)) {
        const [min, max] = fault.latencyMs;
        effect.latencyMs += Math.round(min + next() * (max - min));
      } else if (fault.latencyMs) effect.latencyMs += fault.latencyMs;
      if (fault.http && !effect.http) effect.http = fault.http;
    }
    return effect;
  }
}
