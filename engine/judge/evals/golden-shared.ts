/**
 * Golden replays shared beyond one process: `eval --workers N` runs a case's trials in several
 * worker processes, and each would replay the case's golden calls once more. A store the run
 * hands in (`useGoldenStore`: the runner's signed files) keeps what one worker replayed as the
 * changes it made to the starting world, and another worker applies them to its own starting
 * world instead of replaying. The store is a shortcut, never a source of truth for a verdict:
 * an entry it does not vouch for, or one whose changes do not apply, is replayed as if absent.
 */
import {
  applyEntityPatch,
  derivedKeys,
  type EntityPatch,
  entityPatch,
  isCommitted,
  noteDerived,
  patchKeys,
  type StatesByFake,
} from "../../core/record/index.js";
import { deepFreeze, type States } from "../../serve/runtime/index.js";

/**
 * The golden world and how many golden calls answered an error (the reference's failed attempts),
 * or why it could not be made (a call that went otherwise than the reference recorded, an unknown tool).
 */
export type Replayed = { ok: true; states: States; errors: number } | { ok: false; message: string };

/** Where replays are kept beyond this process, by the id of the case's replay (scenario, start, calls). */
export interface GoldenStore {
  /** The value written under `id`, when the store holds one it vouches for; else undefined. */
  read(id: string): Promise<unknown>;
  /** Keeps `value` under `id`; a store that cannot (full, unwritable) keeps nothing, silently. */
  write(id: string, value: unknown): Promise<void>;
}

let store: GoldenStore | undefined;

/**
 * Shares this process's golden replays through `next` (undefined: replays stay in the process).
 *
 * @example useGoldenStore(goldenFileStore({ dir, secret, fakes }));
 */
export function useGoldenStore(next: GoldenStore | undefined): void {
  store = next;
}

type Entry = { ok: false; message: string } | { ok: true; errors: number; changes: Record<string, Record<string, EntityPatch | null>> };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A replay as the changes it made to its starting world: entity by entity, the unchanged records left out. */
function encode(replayed: Replayed, start: StatesByFake): Entry {
  if (!replayed.ok) return replayed;
  const changes: Record<string, Record<string, EntityPatch | null>> = {};
  for (const id of new Set([...Object.keys(start), ...Object.keys(replayed.states)])) {
    const before = start[id] ?? {};
    const after = replayed.states[id] ?? {};
    for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (before[name] === after[name]) continue;
      const keys = isObject(before[name]) && isObject(after[name]) ? derivedKeys(before[name], after[name]) : undefined;
      const patch = after[name] === undefined ? null : entityPatch(before[name], after[name], "id", keys);
      if (patch !== undefined) (changes[id] ??= {})[name] = patch;
    }
  }
  return { ok: true, errors: replayed.errors, changes };
}

/** The replay an entry stands for, applied to this process's starting world; undefined when it does not fit. */
function decode(entry: unknown, start: StatesByFake): Replayed | undefined {
  if (!isObject(entry)) return undefined;
  if (entry.ok === false) return typeof entry.message === "string" ? { ok: false, message: entry.message } : undefined;
  if (entry.ok !== true || typeof entry.errors !== "number" || !isObject(entry.changes)) return undefined;
  const states: States = {};
  for (const [id, state] of Object.entries(start)) states[id] = { ...state };
  try {
    for (const [id, patches] of Object.entries(entry.changes)) {
      if (!isObject(patches)) return undefined;
      const state = (states[id] ??= {});
      for (const [name, patch] of Object.entries(patches)) {
        const before = state[name];
        if (patch === null) delete state[name];
        else state[name] = derived(before, applyEntityPatch(before, patch as EntityPatch), patch as EntityPatch);
        if (state[name] === undefined) delete state[name];
      }
    }
  } catch {
    return undefined;
  }
  return { ok: true, states, errors: entry.errors };
}

/**
 * `after`, frozen, noted as made from `before` by the keys its JSON Patch went through, when
 * both are objects: the patch copied only the containers on its paths, so every other key holds
 * the very value `before` holds, and comparing a trial's world with this golden one (both made
 * from the same starting world) costs those keys, as it does for a replay made in this process.
 */
function derived(before: unknown, after: unknown, patch: EntityPatch): unknown {
  // Only a committed value can be noted: the note must stay true.
  if (!Array.isArray(patch) || !isObject(before) || !isObject(after) || after === before || !isCommitted(before)) return after;
  deepFreeze(after);
  // A patch of the whole entity replaced it: nothing to note.
  const keys = patchKeys(patch);
  if (keys) noteDerived(after, before, [...keys]);
  return after;
}

/**
 * The replay of case `id`: from the store when it holds one that applies to `start`, else made
 * by `replay` (from `start`) and written to the store for the run's other processes.
 *
 * @example const replayed = await sharedReplay(id, start, () => replay(...));
 */
export async function sharedReplay(id: string, start: StatesByFake, replay: () => Promise<Replayed>): Promise<Replayed> {
  const using = store;
  if (!using) return replay();
  const kept = decode(await using.read(id).catch(() => undefined), start);
  if (kept) return kept;
  const made = await replay();
  await using.write(id, encode(made, start)).catch(() => undefined);
  return made;
}
