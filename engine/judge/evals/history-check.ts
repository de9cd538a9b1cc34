/**
 * The check that a record's changes rebuild the run's final world, decided from the keys they
 * change: an entity keyed by id whose final value a commit noted as made from the initial one
 * (`derivedKeys`) can differ from it only in those keys, and the record's patches touch only
 * the keys their paths start with, so applying them to just those keys and comparing just those
 * keys gives the answer of rebuilding the whole world and comparing every key, without copying
 * an entity of 100,000 records once a commit. Anything else (an array of records, a patch that
 * replaces the entity, a value no commit noted) is left to the full rebuild, as is a mismatch,
 * so every message stays the full rebuild's.
 */
import { applyEntityPatch, derivedKeys, type EntityPatch, holdsKey, patchKeys, sameJson, type StatesByFake } from "../../core/record/index.js";

type Json = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** The keys an entity's patches go through, when each is a JSON Patch below the entity; else undefined. */
function topKeys(patches: readonly EntityPatch[]): Set<string> | undefined {
  const keys = new Set<string>();
  for (const patch of patches) {
    const some = patchKeys(patch);
    if (!some) return undefined;
    for (const key of some) keys.add(key);
  }
  return keys;
}

/** True when this entity's patches applied to `initial` give `final`, decided on the changed keys; undefined when it cannot be. */
function entityMatches(initial: unknown, final: unknown, patches: readonly EntityPatch[]): true | undefined {
  if (!isPlainObject(initial) || !isPlainObject(final)) return undefined;
  const noted = derivedKeys(initial, final);
  const keys = noted && topKeys(patches);
  // A key that is the prototype's name would change the copy's prototype, not hold a record.
  if (!noted || !keys || keys.has("__proto__") || noted.includes("__proto__")) return undefined;
  for (const key of noted) keys.add(key);
  // Only the keys the patches or the commits changed: every other one is the same in all three worlds.
  let part: unknown = {};
  for (const key of keys) if (Object.hasOwn(initial, key)) (part as Json)[key] = initial[key];
  for (const patch of patches) part = applyEntityPatch(part, patch);
  if (!isPlainObject(part)) return undefined;
  for (const key of keys) {
    const held = holdsKey(part, key);
    if (held !== holdsKey(final, key) || (held && !sameJson(part[key], final[key]))) return undefined;
  }
  return true;
}

/**
 * True when the commits' changes, applied in order to `initial`, rebuild `final` (as JSON
 * values, entity by entity), decided without rebuilding any entity whole; `undefined` when it
 * cannot be decided so, or the worlds differ: then the caller rebuilds and compares as always.
 *
 * @example if (!rebuildsFinal(run.initial, run.final, commits)) history = rebuildEveryWorld(…);
 */
export function rebuildsFinal(
  initial: StatesByFake,
  final: StatesByFake,
  commits: ReadonlyArray<{ fake: string; changes: Record<string, EntityPatch> }>,
): true | undefined {
  const patched = new Map<string, Map<string, EntityPatch[]>>();
  for (const { fake, changes } of commits) {
    let entities = patched.get(fake);
    if (!entities) patched.set(fake, (entities = new Map()));
    for (const [entity, patch] of Object.entries(changes)) {
      const list = entities.get(entity);
      if (list) list.push(patch);
      else entities.set(entity, [patch]);
    }
  }
  try {
    for (const id of new Set([...Object.keys(initial), ...Object.keys(final), ...patched.keys()])) {
      const entities = patched.get(id);
      for (const entity of new Set([...Object.keys(initial[id] ?? {}), ...Object.keys(final[id] ?? {}), ...(entities?.keys() ?? [])])) {
        const patches = entities?.get(entity);
        const same = patches ? entityMatches(initial[id]?.[entity], final[id]?.[entity], patches) : sameJson(initial[id]?.[entity], final[id]?.[entity]);
        if (!same) return undefined;
      }
    }
  } catch {
    // A patch that does not apply: the full rebuild says which call's, in its words.
    return undefined;
  }
  return true;
}
