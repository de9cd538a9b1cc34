/**
 * Object keys JavaScript reorders: an integer-like key (`"15"`, not `"015"` or `"p15"`) comes
 * before every other key, in ascending numeric order, whatever order the file wrote them in. An
 * entity keyed by such ids (products by number) loses its written order before any handler runs,
 * and an answer that lists its keys or records (`$keys`, `$each`, `$string`) follows JavaScript's.
 */

const INTEGER_KEY = /^(?:0|[1-9]\d{0,9})$/;
/** How many values the walk looks at in one entity before it stops: a bound, not a guess. */
const MAX_VISITS = 100_000;

/** Whether JavaScript orders this key as an array index (below 2^32 - 1). */
function isIndexKey(key: string): boolean {
  return INTEGER_KEY.test(key) && Number(key) < 2 ** 32 - 1;
}

/**
 * The path (inside the value) of the first object whose keys include an integer-like one, and
 * two of its keys, or undefined when there is none.
 *
 * @example numericKeysIn({ products: { "15": {}, "4": {} } }) // { path: ["products"], keys: ["4", "15"] }
 */
export function numericKeysIn(value: unknown): { path: Array<string | number>; keys: string[] } | undefined {
  let visits = 0;
  const walk = (node: unknown, path: Array<string | number>): { path: Array<string | number>; keys: string[] } | undefined => {
    if (++visits > MAX_VISITS || node === null || typeof node !== "object") return undefined;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) {
        const found = walk(item, [...path, i]);
        if (found) return found;
      }
      return undefined;
    }
    const keys = Object.keys(node);
    if (keys.some(isIndexKey)) return { path, keys: keys.slice(0, 3) };
    for (const key of keys) {
      const found = walk((node as Record<string, unknown>)[key], [...path, key]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(value, []);
}
