/**
 * Golden replay computed once per case: the world a case's golden calls make depends only on
 * the fakes, the starting world (scenario and clock, or the run's own initial world) and the
 * calls, so every trial of the case reuses the first trial's replay. A thin layer around the
 * replay itself (`golden.ts`), which knows nothing of it.
 */
import type { LoadedFakes } from "../../author/fakes/index.js";
import { isCommitted, type StatesByFake, valueHash, worldHash } from "../../core/record/index.js";

/** Replays kept per loaded fakes at most: a run of many cases must not grow without end. */
const KEPT = 1_000;

const replays = new WeakMap<object, Map<string, Promise<unknown>>>();

/** What a case's replay is keyed by. */
export interface GoldenKey {
  scenario?: string;
  clock?: string;
  calls: readonly unknown[];
  /** The run's own initial world: what the replay starts from when the case gives no clock. */
  initial: StatesByFake;
}

/**
 * The replay of a case's golden calls, made by `replay` the first time and kept (a replay that
 * throws is not kept: the next trial says why again). `replay` is given the replay's id: what
 * a store beyond this process keeps it by (`golden-shared.ts`).
 *
 * @example const replayed = await replayOnce(loaded, { scenario, clock, calls, initial }, () => replay(...));
 */
export function replayOnce<T>(loaded: LoadedFakes, key: GoldenKey, replay: (id: string) => Promise<T>): Promise<T> {
  let kept = replays.get(loaded.world);
  if (!kept) replays.set(loaded.world, (kept = new Map()));
  // Without a clock the replay starts from the run's initial world: its hash (kept per frozen value) is part of the key.
  const start = key.clock === undefined ? `initial ${worldHash(key.initial).hash}` : `clock ${key.clock}`;
  const id = `${key.scenario ?? ""}\n${start}\n${JSON.stringify(key.calls)}`;
  let replayed = kept.get(id) as Promise<T> | undefined;
  if (!replayed) {
    replayed = replay(id);
    replayed.catch(() => kept.delete(id));
    kept.set(id, replayed);
    while (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  }
  return replayed;
}

/**
 * The world a replay starts from: the run's own initial world when it holds the same values as
 * the case's fresh one (compared by hash, kept per frozen value), since a replay from it shares
 * every record the golden calls do not change with the run's final world, and comparing the two
 * then costs only the changed records; else the fresh world.
 *
 * @example const states = sharedStart(await freshWorld(loaded, scenario, clock), run.initial);
 */
export function sharedStart<S extends StatesByFake>(fresh: S, initial: StatesByFake): S {
  for (const id of new Set([...Object.keys(fresh), ...Object.keys(initial)])) {
    const a = fresh[id];
    const b = initial[id];
    if (!a || !b || typeof b !== "object") return fresh;
    const names = Object.keys(a);
    if (names.length !== Object.keys(b).length) return fresh;
    for (const name of names) {
      const mine = b[name];
      // Only frozen values are shared as they are: an unfrozen one could change under the replay.
      if (mine !== null && typeof mine === "object" && !isCommitted(mine)) return fresh;
      if (mine !== a[name] && valueHash(mine) !== valueHash(a[name])) return fresh;
    }
  }
  return initial as S;
}
