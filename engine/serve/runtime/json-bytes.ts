/**
 * How many bytes a state value takes as JSON (UTF-8, as `JSON.stringify` writes it). A world's
 * size is kept per commit from its changed entities, so each entity's committed value (frozen,
 * so it never changes) has its size remembered: replacing it later measures only the new value.
 */

import { isCommitted } from "../../core/record/index.js";

/** Committed entity values and their sizes. */
const known = new WeakMap<object, number>();

/**
 * The bytes of `value` as JSON: remembered for a committed (frozen) object, else measured.
 *
 * @example jsonBytes({ id: "é" }) // 11, as Buffer.byteLength(JSON.stringify({ id: "é" }))
 */
export function jsonBytes(value: unknown): number {
  const object = value !== null && typeof value === "object" ? value : undefined;
  const cached = object && known.get(object);
  if (cached !== undefined) return cached;
  // A changed entity shares its unchanged records (frozen, their sizes kept) with the value it
  // replaces: summed from its parts it costs the new records; a value of no known parts is
  // measured by native serialisation, which outruns any walk in JavaScript.
  const bytes = object && hasKnownPart(object) ? summedBytes(object) : Buffer.byteLength(JSON.stringify(value) ?? "");
  if (object && isCommitted(object)) known.set(object, bytes);
  return bytes;
}

/** True when some direct part of a plain object or array has its size kept. */
function hasKnownPart(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  for (const key in value) {
    const part = (value as Record<string, unknown>)[key];
    if (part !== null && typeof part === "object" && known.has(part)) return true;
  }
  return false;
}

const part = (inner: unknown) => (inner !== null && typeof inner === "object" ? jsonBytes(inner) : Buffer.byteLength(JSON.stringify(inner) ?? ""));
const skipped = (inner: unknown) => inner === undefined || typeof inner === "function" || typeof inner === "symbol";
const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return !Array.isArray(value) && (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
};

/** One key's part of an object's JSON: `"key":value,` (the comma counted with each entry). */
function entryBytes(value: Record<string, unknown>, key: string): number {
  if (!Object.hasOwn(value, key) || skipped(value[key])) return 0;
  return Buffer.byteLength(JSON.stringify(key)) + 2 + part(value[key]);
}

/**
 * The bytes of `after` as JSON when it differs from `before` only in `keys` (a commit's changed
 * keys): `before`'s size (kept, it is committed) moved by those keys' entries, so an entity of
 * 100,000 records costs the changed ones, not a walk of its keys. The same figure as `jsonBytes`.
 *
 * @example jsonBytesAfter({ a: 1, b: 2 }, { a: 1, b: 30 }, ["b"]) // 14
 */
export function jsonBytesAfter(before: object, after: object, keys: readonly string[]): number {
  if (!isPlain(before) || !isPlain(after)) return jsonBytes(after);
  const old = jsonBytes(before);
  // `{` + the entries, each with its comma (the last one's stands for `}`); `{}` when none.
  let entries = old === 2 ? 0 : old - 1;
  for (const key of new Set(keys)) entries += entryBytes(after as Record<string, unknown>, key) - entryBytes(before as Record<string, unknown>, key);
  return entries === 0 ? 2 : entries + 1;
}

/** The bytes of a plain object or array as JSON, from its parts' (kept or measured) sizes. */
function summedBytes(value: object): number {
  if (Array.isArray(value)) {
    let bytes = 2 + Math.max(0, value.length - 1);
    for (let i = 0; i < value.length; i++) bytes += skipped(value[i]) ? 4 : part(value[i]);
    return bytes;
  }
  let bytes = 2;
  let count = 0;
  for (const [key, inner] of Object.entries(value)) {
    if (skipped(inner)) continue;
    bytes += Buffer.byteLength(JSON.stringify(key)) + 1 + part(inner);
    count++;
  }
  return bytes + Math.max(0, count - 1);
}

/**
 * Remembers the size of a value that has just been frozen (a committed entity), so replacing it
 * later costs nothing to measure.
 *
 * @example deepFreeze(value); rememberBytes(value, measured);
 */
export function rememberBytes(value: unknown, bytes: number): void {
  if (value !== null && typeof value === "object" && isCommitted(value)) known.set(value, bytes);
}
