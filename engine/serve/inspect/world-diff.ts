/**
 * What changed in a fake's state since it started, entity by entity, as the inspector shows it:
 * for lists of records with an `id` (or `number`, `key`, `name`), which were added, removed and
 * updated; for anything else, whether it changed. Bounded, so a large world costs a bounded answer.
 */

export interface EntityDiff {
  entity: string;
  changed: boolean;
  /** Keys of records added, removed and updated, when the entity is a list of keyed records. */
  added?: string[];
  removed?: string[];
  updated?: string[];
  /** More keys than listed (each list is cut at `limit`). */
  more?: number;
}

const KEYS = ["id", "number", "key", "name"];

function keyOf(records: unknown[]): string | undefined {
  for (const key of KEYS) {
    if (
      records.length > 0 &&
      records.every(
        (r) =>
          r !== null &&
          typeof r === "object" &&
          (typeof (r as Record<string, unknown>)[key] === "string" || typeof (r as Record<string, unknown>)[key] === "number"),
      )
    )
      return key;
  }
  return undefined;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Each entity of one fake, compared with its starting value (frozen values are shared until a
 * commit replaces them, so an untouched entity costs one identity check).
 *
 * @example diffEntities({ notes: [] }, { notes: [{ id: "n1" }] }); // [{ entity: "notes", changed: true, added: ["n1"], … }]
 */
export function diffEntities(initial: unknown, current: unknown, limit = 100): EntityDiff[] {
  const before = (initial ?? {}) as Record<string, unknown>;
  const after = (current ?? {}) as Record<string, unknown>;
  const diffs: EntityDiff[] = [];
  for (const entity of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[entity];
    const b = after[entity];
    if (a === b) {
      diffs.push({ entity, changed: false });
      continue;
    }
    const key = Array.isArray(a) && Array.isArray(b) ? keyOf([...a, ...b]) : undefined;
    if (key === undefined || !Array.isArray(a) || !Array.isArray(b)) {
      diffs.push({ entity, changed: !same(a, b) });
      continue;
    }
    const old = new Map(a.map((r) => [String((r as Record<string, unknown>)[key]), r]));
    const now = new Map(b.map((r) => [String((r as Record<string, unknown>)[key]), r]));
    const added = [...now.keys()].filter((k) => !old.has(k));
    const removed = [...old.keys()].filter((k) => !now.has(k));
    const updated = [...now.keys()].filter((k) => old.has(k) && !same(old.get(k), now.get(k)));
    const total = added.length + removed.length + updated.length;
    const cut = (list: string[]) => list.slice(0, limit);
    diffs.push({
      entity,
      changed: total > 0 || !same(a, b),
      added: cut(added),
      removed: cut(removed),
      updated: cut(updated),
      ...(total > cut(added).length + cut(removed).length + cut(updated).length
        ? { more: total - cut(added).length - cut(removed).length - cut(updated).length }
        : {}),
    });
  }
  return diffs;
}
