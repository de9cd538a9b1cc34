import { sameJson } from "../../core/record/index.js";
import type { StatesByFake } from "../../core/record/index.js";
import { show } from "./match-value.js";

/**
 * An entity's records compared by key: what was added, removed, and updated (before and after).
 * Records are an array of objects with a unique `key` field, or an object whose values are
 * records, keyed by id (`{ "o-1": {…}, "o-2": {…} }`): `keyedBy` says which, and
 * `addedKeys`/`removedKeys` name the records of `added`/`removed` in both shapes.
 */
export interface RecordDiff {
  key: string;
  keyedBy: "field" | "object";
  added: unknown[];
  removed: unknown[];
  updated: Array<{ key: unknown; before: unknown; after: unknown }>;
  addedKeys: Array<string | number>;
  removedKeys: Array<string | number>;
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Records by key: an array's by its `key` field, an object's by its own keys; undefined when it holds other things. */
function indexRecords(value: unknown, key: string): { shape: "field" | "object"; map: Map<string | number, unknown> } | undefined {
  const map = new Map<string | number, unknown>();
  if (Array.isArray(value)) {
    for (const record of value) {
      const k = isRecord(record) ? record[key] : undefined;
      if ((typeof k !== "string" && typeof k !== "number") || map.has(k)) return undefined;
      map.set(k, record);
    }
    return { shape: "field", map };
  }
  if (!isRecord(value)) return undefined;
  for (const [k, record] of Object.entries(value)) {
    if (record === undefined) continue;
    if (!isRecord(record)) return undefined;
    map.set(k, record);
  }
  return { shape: "object", map };
}

/**
 * The records of two values compared by key (arrays of records by `key`, objects of records by
 * their own keys), or undefined when either holds something else, or the two differ in shape.
 *
 * @example recordDiff([{ id: 1, s: "a" }], [{ id: 1, s: "b" }], "id") // { key: "id", keyedBy: "field", updated: [{ key: 1, before, after }], … }
 * @example recordDiff({ o1: { s: "a" } }, { o1: { s: "b" } }).updated[0].key // "o1"
 */
export function recordDiff(before: unknown, after: unknown, key = "id"): RecordDiff | undefined {
  const old = before === undefined ? undefined : indexRecords(before, key);
  const fresh = after === undefined ? undefined : indexRecords(after, key);
  if ((before !== undefined && !old) || (after !== undefined && !fresh)) return undefined;
  const shape = old?.shape ?? fresh?.shape;
  if (!shape || (old && fresh && old.shape !== fresh.shape)) return undefined;
  const was = old?.map ?? new Map();
  const now = fresh?.map ?? new Map();
  const diff: RecordDiff = { key, keyedBy: shape, added: [], removed: [], updated: [], addedKeys: [], removedKeys: [] };
  for (const [k, record] of now) {
    if (!was.has(k)) {
      diff.added.push(record);
      diff.addedKeys.push(k);
    } else if (!sameJson(was.get(k), record)) diff.updated.push({ key: k, before: was.get(k), after: record });
  }
  for (const [k, record] of was)
    if (!now.has(k)) {
      diff.removed.push(record);
      diff.removedKeys.push(k);
    }
  return diff;
}

/** The top-level fields whose values differ between two versions of a record. */
export function changedFields(before: unknown, after: unknown): string[] {
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  return [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => !sameJson(b[f], a[f]));
}

/** How many records a diff account names before it says "and N more". */
export const RECORDS_SHOWN = 10;

/**
 * A record diff in words, record by record and field by field, the first `RECORDS_SHOWN`
 * records then "and N more": `record "o-7": status is "shipped" in the run, "pending" in the golden world`.
 * `now` and `before` name the two sides (the run and the golden world; after and before).
 *
 * @example describeRecordDiff(diff, { now: "in the run", before: "in the golden world" })
 */
export function describeRecordDiff(diff: RecordDiff, sides: { now: string; before: string }): string[] {
  const parts = [
    ...diff.updated.map(
      (u) =>
        `record ${show(u.key)}: ${changedFields(u.before, u.after)
          .map((f) => `${f} is ${show((u.after as Json)[f])} ${sides.now}, ${show((u.before as Json)[f])} ${sides.before}`)
          .join(", ")}`,
    ),
    ...diff.addedKeys.map((k) => `record ${show(k)} is only ${sides.now}`),
    ...diff.removedKeys.map((k) => `record ${show(k)} is only ${sides.before}`),
  ];
  return parts.length > RECORDS_SHOWN ? [...parts.slice(0, RECORDS_SHOWN), `and ${parts.length - RECORDS_SHOWN} more records`] : parts;
}

/**
 * `$diff` for JSONata assertions: per fake and changed entity, the record diff (by `id` for an
 * array of records, by key for an object of records), `{ before, after }` otherwise.
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
