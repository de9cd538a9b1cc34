/**
 * What one commit changed in an entity, compactly: by key for an array of records (the records
 * added, updated and removed), a JSON Patch (RFC 6902) otherwise. Never the whole large value:
 * a commit that adds one record to 100,000 records records one record. Applying a commit's
 * patches to the state before it gives the state after it, exactly (as JSON values).
 */

import { canonicalJson } from "./canonical-json.js";
import { derivedKeys, holdsKey } from "./derived-values.js";

/** An RFC 6902 operation of the forms this module writes. */
export type JsonPatchOperation = { op: "add" | "replace"; path: string; value: unknown } | { op: "remove"; path: string };

/** An array of records changed by key: what was added, updated (the new records), removed (their keys). */
export interface KeyedPatch {
  /** The field that names a record. */
  key: string;
  added?: unknown[];
  updated?: unknown[];
  removed?: Array<string | number>;
  /** Every record's key in the new order, when the order is not the old one with additions last. */
  order?: Array<string | number>;
}

/** One entity's change: keyed for arrays of records, a JSON Patch otherwise. */
export type EntityPatch = KeyedPatch | JsonPatchOperation[];

/** A commit's patches by entity name, as a record line's `changes` holds them. */
export type EntityPatches = Record<string, EntityPatch>;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * True when two values are the same JSON value (key order aside). Shared frozen subtrees are
 * the same object, so comparing a large entity after a small change costs little.
 *
 * @example sameJson({ a: 1, b: [2] }, { b: [2], a: 1 }) // true
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  // A value with toJSON (a Date) is the JSON it writes, not its own keys.
  if (typeof (a as { toJSON?: unknown }).toJSON === "function" || typeof (b as { toJSON?: unknown }).toJSON === "function")
    return JSON.stringify(a) === JSON.stringify(b) && canonicalJson(a) === canonicalJson(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], other[i])) return false;
    return true;
  }
  const left = a as Json;
  const right = b as Json;
  // One made from the other by a commit, or both from one root: only the keys changed since can differ.
  const changed = derivedKeys(left, right);
  if (changed) {
    for (const key of changed) {
      const held = holdsKey(left, key);
      if (held !== holdsKey(right, key) || (held && !sameJson(left[key], right[key]))) return false;
    }
    return true;
  }
  // One pass over each side's keys, no copies: an entity of 100,000 records keyed by id is
  // compared after every commit, and its shared records are the same objects.
  let count = 0;
  for (const key of Object.keys(left)) {
    const mine = left[key];
    if (mine === undefined) continue;
    count++;
    const theirs = right[key];
    if (theirs === mine) continue;
    if (theirs === undefined || !Object.hasOwn(right, key) || !sameJson(mine, theirs)) return false;
  }
  for (const key of Object.keys(right)) if (right[key] !== undefined && --count < 0) return false;
  return count === 0;
}

/** The records' keys when every element is a record with a unique string or number `key`. */
function keysOf(value: unknown, key: string): Array<string | number> | undefined {
  if (!Array.isArray(value)) return undefined;
  const keys: Array<string | number> = [];
  const seen = new Set<string | number>();
  for (const item of value) {
    const id = isObject(item) ? item[key] : undefined;
    if ((typeof id !== "string" && typeof id !== "number") || seen.has(id)) return undefined;
    seen.add(id);
    keys.push(id);
  }
  return keys;
}

const pointer = (segment: string | number) => String(segment).replace(/~/g, "~0").replace(/\//g, "~1");

function diffInto(before: unknown, after: unknown, path: string, ops: JsonPatchOperation[]): void {
  if (before === after) return;
  // Objects are walked key by key, equal keys adding nothing: no whole comparison first.
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before))
      if (before[key] !== undefined && (!Object.hasOwn(after, key) || after[key] === undefined)) ops.push({ op: "remove", path: `${path}/${pointer(key)}` });
    for (const key of Object.keys(after)) {
      if (after[key] === undefined) continue;
      if (!Object.hasOwn(before, key) || before[key] === undefined) ops.push({ op: "add", path: `${path}/${pointer(key)}`, value: after[key] });
      else diffInto(before[key], after[key], `${path}/${pointer(key)}`, ops);
    }
    return;
  }
  if (sameJson(before, after)) return;
  if (Array.isArray(before) && Array.isArray(after)) {
    let start = 0;
    while (start < before.length && start < after.length && sameJson(before[start], after[start])) start++;
    let endB = before.length;
    let endA = after.length;
    while (endB > start && endA > start && sameJson(before[endB - 1], after[endA - 1])) [endB, endA] = [endB - 1, endA - 1];
    const common = Math.min(endB - start, endA - start);
    for (let i = 0; i < common; i++) diffInto(before[start + i], after[start + i], `${path}/${start + i}`, ops);
    // Removed from the end backwards, so each index still names the element it meant.
    for (let i = endB - 1; i >= start + common; i--) ops.push({ op: "remove", path: `${path}/${i}` });
    for (let i = start + common; i < endA; i++) ops.push({ op: "add", path: `${path}/${i}`, value: after[i] });
    return;
  }
  ops.push({ op: "replace", path, value: after });
}

/**
 * The JSON Patch between two objects that differ only in `keys` (every other key holds the same
 * value in both): the operations a walk of every key would make, walking only those keys.
 */
function keyedDiff(before: Json, after: Json, keys: readonly string[]): JsonPatchOperation[] | undefined {
  const ops: JsonPatchOperation[] = [];
  const changes: JsonPatchOperation[] = [];
  for (const key of new Set(keys)) {
    const had = Object.hasOwn(before, key) && before[key] !== undefined;
    const has = Object.hasOwn(after, key) && after[key] !== undefined;
    // Removals first, as the walk makes them: an index names the same element either way.
    if (had && !has) ops.push({ op: "remove", path: `/${pointer(key)}` });
    else if (has && !had) changes.push({ op: "add", path: `/${pointer(key)}`, value: after[key] });
    else if (has) diffInto(before[key], after[key], `/${pointer(key)}`, changes);
  }
  ops.push(...changes);
  return ops.length > 0 ? ops : undefined;
}

/**
 * The patch that turns `before` into `after`: keyed (by `key`, `id` by default) when both are
 * arrays of records with unique keys, a JSON Patch otherwise; `undefined` when they are equal.
 * `changedKeys`, when both are objects: the only keys in which they may differ (see `entityPatches`).
 *
 * @example entityPatch([{ id: 1, a: 1 }], [{ id: 1, a: 2 }, { id: 2 }]) // { key: "id", added: [{ id: 2 }], updated: [{ id: 1, a: 2 }] }
 */
export function entityPatch(before: unknown, after: unknown, key = "id", changedKeys?: readonly string[]): EntityPatch | undefined {
  if (changedKeys && isObject(before) && isObject(after)) return keyedDiff(before, after, changedKeys);
  if (sameJson(before, after)) return undefined;
  if (before === undefined) return [{ op: "add", path: "", value: after }];
  if (after === undefined) return [{ op: "remove", path: "" }];
  const oldKeys = keysOf(before, key);
  const newKeys = oldKeys && keysOf(after, key);
  if (oldKeys && newKeys) {
    const old = new Map(oldKeys.map((k, i) => [k, (before as unknown[])[i]]));
    const fresh = new Set(newKeys);
    const patch: KeyedPatch = { key };
    const added: unknown[] = [];
    const updated: unknown[] = [];
    (after as unknown[]).forEach((record, i) => {
      const previous = old.get(newKeys[i]);
      if (previous === undefined) added.push(record);
      else if (!sameJson(previous, record)) updated.push(record);
    });
    const removed = oldKeys.filter((k) => !fresh.has(k));
    if (added.length > 0) patch.added = added;
    if (updated.length > 0) patch.updated = updated;
    if (removed.length > 0) patch.removed = removed;
    const kept = oldKeys.filter((k) => fresh.has(k));
    const natural = [...kept, ...newKeys.filter((k) => !old.has(k))];
    if (natural.some((k, i) => k !== newKeys[i])) patch.order = newKeys;
    return patch;
  }
  const ops: JsonPatchOperation[] = [];
  diffInto(before, after, "", ops);
  return ops;
}

/**
 * Every changed entity's patch between two states of one fake, or `undefined` when none changed.
 * `changedKeys` (a commit's `keys`): for an entity that is an object, the only keys that may
 * differ, so the patch costs the changed records, not the entity; the result is the same.
 *
 * @example entityPatches({ notes: [] }, { notes: [{ id: "n1" }] }) // { notes: { key: "id", added: [{ id: "n1" }] } }
 */
export function entityPatches(before: Json, after: Json, changedKeys?: Record<string, readonly string[]>): EntityPatches | undefined {
  const patches: EntityPatches = {};
  for (const name of Object.keys(after)) {
    const patch = entityPatch(before[name], after[name], "id", changedKeys?.[name]);
    if (patch) patches[name] = patch;
  }
  return Object.keys(patches).length > 0 ? patches : undefined;
}

const unpointer = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/**
 * The top-level keys a JSON Patch of an entity goes through (each operation's first path
 * segment), when every operation is below the entity; `undefined` for a keyed patch or one that
 * replaces the entity whole. Applying the patch changes only these keys of the entity.
 *
 * @example patchKeys([{ op: "replace", path: "/o-7/status", value: "shipped" }]) // Set { "o-7" }
 */
export function patchKeys(patch: EntityPatch): Set<string> | undefined {
  if (!Array.isArray(patch)) return undefined;
  const keys = new Set<string>();
  for (const op of patch) {
    const path = (op as { path?: unknown } | null)?.path;
    if (typeof path !== "string" || !path.startsWith("/")) return undefined;
    const end = path.indexOf("/", 1);
    keys.add(unpointer(end < 0 ? path.slice(1) : path.slice(1, end)));
  }
  return keys;
}

/** Sets an own key, `__proto__` included (assigning that one would set the object's prototype, not a key JSON reads). */
function setOwn(target: Json, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * `value` with one operation applied; containers on the path are copied, the rest shared. A
 * container in `owned` is a copy this patch made already and is changed in place, so a patch of
 * many operations under one large object copies the object once, not once an operation.
 */
function applyOperation(value: unknown, segments: string[], op: JsonPatchOperation, owned: Set<object>): unknown {
  if (segments.length === 0) return op.op === "remove" ? undefined : op.value;
  const [head, ...rest] = segments;
  if (Array.isArray(value)) {
    const copy = owned.has(value) ? value : [...value];
    owned.add(copy);
    const index = head === "-" ? copy.length : Number(head);
    if (!Number.isInteger(index) || index < 0 || index > copy.length)
      throw new Error(`[eval-simulate] a patch names index ${head} of an array of ${copy.length}`);
    if (rest.length > 0) copy[index] = applyOperation(copy[index], rest, op, owned);
    else if (op.op === "add") copy.splice(index, 0, op.value);
    else if (op.op === "remove") copy.splice(index, 1);
    else copy[index] = op.value;
    return copy;
  }
  if (isObject(value)) {
    const copy: Json = owned.has(value) ? value : { ...value };
    owned.add(copy);
    if (rest.length > 0) setOwn(copy, head, applyOperation(copy[head], rest, op, owned));
    else if (op.op === "remove") delete copy[head];
    else setOwn(copy, head, op.value);
    return copy;
  }
  throw new Error(`[eval-simulate] a patch goes through "${head}" of a value that is not an object or array`);
}

/**
 * The value after a patch, leaving `before` untouched (unchanged parts are shared with it).
 * Throws when the patch does not fit the value: a record log read against the wrong state.
 *
 * @example applyEntityPatch([{ id: 1 }], { key: "id", added: [{ id: 2 }] }) // [{ id: 1 }, { id: 2 }]
 */
export function applyEntityPatch(before: unknown, patch: EntityPatch): unknown {
  if (Array.isArray(patch)) {
    let value = before;
    const owned = new Set<object>();
    for (const op of patch) value = applyOperation(value, op.path === "" ? [] : op.path.slice(1).split("/").map(unpointer), op, owned);
    return value;
  }
  // The common commits (records appended, or records changed in place) need no index of the rest.
  if (Array.isArray(before) && !patch.removed && !patch.order) {
    if (!patch.updated) return before.concat(patch.added ?? []);
    if (!patch.added) {
      const updated = new Map((patch.updated as Json[]).map((record) => [record[patch.key], record]));
      let found = 0;
      const after = before.map((record) => {
        const next = isObject(record) ? updated.get(record[patch.key]) : undefined;
        if (next !== undefined) found++;
        return next ?? record;
      });
      if (found === updated.size) return after;
    }
  }
  const keys = keysOf(before ?? [], patch.key);
  if (!keys) throw new Error(`[eval-simulate] a keyed patch (by "${patch.key}") applies to an array of records with unique keys`);
  const records = new Map<string | number, unknown>(keys.map((k, i) => [k, (before as unknown[])[i]]));
  for (const k of patch.removed ?? []) records.delete(k);
  for (const record of patch.updated ?? []) records.set((record as Json)[patch.key] as string | number, record);
  const added = (patch.added ?? []).map((record) => (record as Json)[patch.key] as string | number);
  for (const [i, record] of (patch.added ?? []).entries()) records.set(added[i], record);
  const isAdded = new Set(added);
  const order = patch.order ?? [...keys.filter((k) => records.has(k) && !isAdded.has(k)), ...added];
  return order.map((k) => {
    if (!records.has(k)) throw new Error(`[eval-simulate] a keyed patch orders a record "${k}" it does not hold`);
    return records.get(k);
  });
}
