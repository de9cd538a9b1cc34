/**
 * How many bytes a state value takes as JSON (UTF-8, as `JSON.stringify` writes it). A world's
 * size is kept per commit from its changed entities, so each entity's committed value (frozen,
 * so it never changes) has its size remembered: replacing it later measures only the new value.
 */

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
  // Native serialisation outruns any walk of the value in JavaScript, and a changed entity is
  // copied whole by its draft anyway.
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? "");
  if (object && Object.isFrozen(object)) known.set(object, bytes);
  return bytes;
}

/**
 * Remembers the size of a value that has just been frozen (a committed entity), so replacing it
 * later costs nothing to measure.
 *
 * @example deepFreeze(value); rememberBytes(value, measured);
 */
export function rememberBytes(value: unknown, bytes: number): void {
  if (value !== null && typeof value === "object" && Object.isFrozen(value)) known.set(value, bytes);
}
