/**
 * Which frozen objects were made from which by changing some of their keys: a commit of a
 * TypeScript write knows the keys it changed in an entity keyed by id, so comparing the entity
 * after it with the one it was made from (or two entities made from the same one: a run's final
 * world and its golden world) needs only those keys, not a walk of 100,000 of them.
 *
 * Each object is kept with the first object of its line (its root, held strongly: it is the
 * starting world, which outlives the run anyway) and every key changed since, so comparisons
 * need no chain walk, and the objects in between can be collected. The keys are capped: past
 * the cap an object starts no line and is compared by walking, as any other.
 */

type Json = Record<string, unknown>;

/** Keys changed since the root beyond which a line is not followed: the walk is as cheap by then. */
export const MAX_DERIVED_KEYS = 10_000;

const origins = new WeakMap<object, { root: object; keys: readonly string[] }>();

/**
 * Notes that `after` holds what `before` holds except perhaps in `keys`: every other own key
 * holds the same value, the same object. Both must be frozen (committed values), so the note
 * stays true; a wrong note would make `sameJson` wrong, so only a commit's own keys are noted.
 *
 * @example noteDerived(committed.orders, previous.orders, ["o-7"])
 */
export function noteDerived(after: object, before: object, keys: readonly string[]): void {
  if (after === before) return;
  const prior = origins.get(before);
  if (!prior) {
    if (keys.length <= MAX_DERIVED_KEYS) origins.set(after, { root: before, keys: [...new Set(keys)] });
    return;
  }
  const union = new Set(prior.keys);
  for (const key of keys) union.add(key);
  if (union.size <= MAX_DERIVED_KEYS) origins.set(after, { root: prior.root, keys: [...union] });
}

/**
 * The only keys in which two objects may differ, when one was made from the other or both from
 * the same root (see `noteDerived`); `undefined` when their lines are unknown.
 *
 * @example derivedKeys(run.initial.shop.orders, run.final.shop.orders) // ["o-7"]
 */
export function derivedKeys(a: object, b: object): readonly string[] | undefined {
  const mine = origins.get(a);
  if (mine?.root === b) return mine.keys;
  const theirs = origins.get(b);
  if (theirs?.root === a) return theirs.keys;
  if (!mine || !theirs || mine.root !== theirs.root) return undefined;
  return [...new Set([...mine.keys, ...theirs.keys])];
}

/** True when `key` is an own key holding a value other than `undefined` (as JSON writes it). */
export const holdsKey = (value: Json, key: string): boolean => Object.hasOwn(value, key) && value[key] !== undefined;
