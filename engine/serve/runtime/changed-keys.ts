import type { Patch } from "immer";

/**
 * The keys a TypeScript write changed in an entity that is an object keyed by id, learnt from
 * immer's patches as the draft finishes: kept per new value (beside the value it was made from),
 * so a commit can say which records changed without walking an entity of 100,000 keys to find
 * them. Only what immer saw is known: an entity replaced whole, or an array, has no entry.
 */
// The base is held weakly: a line of commits must not keep every world it went through alive.
const known = new WeakMap<object, { base: WeakRef<object>; keys: readonly string[] }>();

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Remembers, for each written entity whose value changed, the top-level keys immer's `patches`
 * (paths from the draft's root: entity, key, …) went through; `base` holds the values before.
 */
export function rememberChangedKeys(patches: readonly Patch[], base: Record<string, unknown>, done: Record<string, unknown>): void {
  const keys = new Map<string, Set<string> | null>();
  for (const { path } of patches) {
    const entity = String(path[0]);
    // The records of an entity too large to copy, drafted beside it: their draft says its keys itself.
    if (entity.startsWith("\u0000")) continue;
    // A path that stops at the entity replaced it whole: which keys differ is unknown.
    if (path.length < 2) keys.set(entity, null);
    else if (keys.get(entity) !== null) {
      let set = keys.get(entity);
      if (!set) keys.set(entity, (set = new Set()));
      set.add(String(path[1]));
    }
  }
  for (const [entity, set] of keys) {
    const before = base[entity];
    const after = done[entity];
    if (set && after !== before && isPlainObject(before) && isPlainObject(after)) known.set(after, { base: new WeakRef(before), keys: [...set] });
  }
}

/** Remembers that `after` was made from `before` by changing `keys` (a keyed draft's own account). */
export function rememberKeys(after: object, before: object, keys: readonly string[]): void {
  if (after !== before) known.set(after, { base: new WeakRef(before), keys });
}

/**
 * The keys in which `after` differs from `before` (every other key holds the same value, the
 * same object), when a draft made `after` from `before`; `undefined` when unknown.
 */
export function changedKeysOf(before: unknown, after: unknown): readonly string[] | undefined {
  if (!isPlainObject(after)) return undefined;
  const entry = known.get(after);
  return entry && entry.base.deref() === before ? entry.keys : undefined;
}
