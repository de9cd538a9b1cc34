import { sameJson } from "../../core/record/index.js";
import type { StatesByFake } from "../../core/record/index.js";

/** An entity's records compared by key: what was added, removed, and updated (before and after). */
export interface RecordDiff {
  key: string;
  added: unknown[];
  removed: unknown[];
  updated: Array<{ key: unknown; before: unknown; after: unknown }>;
}

type Json = Record<string, unknown>;

/**
 * The records of two arrays compared by `key`, or undefined when either is not an array of
 * records with unique keys.
 *
 * @example recordDiff([{ id: 1, s: "a" }], [{ id: 1, s: "b" }], "id") // { key: "id", added: [], removed: [], updated: [{ key: 1, before, after }] }
 */
export function recordDiff(before: unknown, after: unknown, key = "id"): RecordDiff | undefined {
  const index = (value: unknown) => {
    if (!Array.isArray(value)) return undefined;
    const map = new Map<unknown, unknown>();
    for (const record of value) {
      const k = record && typeof record === "object" && !Array.isArray(record) ? (record as Json)[key] : undefined;
      if ((typeof k !== "string" && typeof k !== "number") || map.has(k)) return undefined;
      map.set(k, record);
    }
    return map;
  };
  const old = before === undefined ? new Map() : index(before);
  const fresh = after === undefined ? new Map() : index(after);
  if (!old || !fresh) return undefined;
  const diff: RecordDiff = { key, added: [], removed: [], updated: [] };
  for (const [k, record] of fresh) {
    if (!old.has(k)) diff.added.push(record);
    else if (!sameJson(old.get(k), record)) diff.updated.push({ key: k, before: old.get(k), after: record });
  }
  for (const [k, record] of old) if (!fresh.has(k)) diff.removed.push(record);
  return diff;
}

/**
 * `$diff` for JSONata assertions: per fake and changed entity, the record diff by `id` when the
 * entity is an array of records, `{ before, after }` otherwise.
 *
 * @example worldDiff(run.initial, run.final).tickets.tickets.updated[0].after.status // "closed"
 */
export function worldDiff(initial: StatesByFake, final: StatesByFake): Record<string, Record<string, unknown>> {
  const diff: Record<string, Record<string, unknown>> = {};
  for (const id of new Set([...Object.keys(initial), ...Object.keys(final)])) {
    for (const entity of new Set([...Object.keys(initial[id] ?? {}), ...Object.keys(final[id] ?? {})])) {
      const before = initial[id]?.[entity];
      const after = final[id]?.[entity];
      if (sameJson(before, after)) continue;
      (diff[id] ??= {})[entity] = recordDiff(before, after) ?? { before, after };
    }
  }
  return diff;
}
