/**
 * How scenario state is layered: objects merge key by key, everything else (arrays included) is
 * replaced, and the result never shares an object with its inputs, so changing one world can
 * never change another or the manifest it came from.
 */

/**
 * `over` merged onto `base`: where both are plain objects, keys merge deeply; otherwise `over`
 * wins (arrays are replaced, not concatenated). `over` undefined keeps `base`; null replaces.
 * The result is a fresh copy throughout.
 *
 * @example deepMerge({ a: { x: 1 }, list: [1, 2] }, { a: { y: 2 }, list: [3] })
 * // { a: { x: 1, y: 2 }, list: [3] }
 */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return deepCopy(base);
  if (!isPlainObject(base) || !isPlainObject(over)) return deepCopy(over);
  const entries: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(base)) {
    entries.push([key, Object.hasOwn(over, key) ? deepMerge(value, over[key]) : deepCopy(value)]);
  }
  for (const [key, value] of Object.entries(over)) {
    if (!Object.hasOwn(base, key) && value !== undefined) entries.push([key, deepCopy(value)]);
  }
  // fromEntries defines own properties, so a "__proto__" key from YAML stays data.
  return Object.fromEntries(entries);
}

/**
 * A fresh deep copy of a JSON-like value: arrays and plain objects are copied key by key, Dates
 * are copied, other objects go through structuredClone; primitives (and functions) are returned.
 *
 * @example const copy = deepCopy(entity.default);
 */
export function deepCopy<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => deepCopy(item)) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (!isPlainObject(value)) return structuredClone(value);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deepCopy(item)])) as T;
}

/**
 * True for `{…}` objects (and null-prototype ones), false for arrays, Dates, class instances.
 *
 * @example isPlainObject({ a: 1 }) // true; isPlainObject([1]) // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
