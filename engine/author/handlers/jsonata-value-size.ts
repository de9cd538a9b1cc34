import { MAX_VALUES } from "./jsonata-plain.js";

/**
 * How large a value is once written out. jsonata values may share parts (`$b := [1..1000].{ "x": $a }`
 * holds one `$a` a thousand times), so a value built in a few steps can stand for a billion
 * nodes: writing it (`$string`, `$clone`) or comparing it (`=`, `$distinct`) walks every one in
 * a single synchronous step the evaluation hook never sees. Those steps first count the value,
 * giving up past a budget.
 */

/** The most nodes one walk-everything step may visit: the same budget as copying a result. */
export const MAX_WALK = MAX_VALUES;

/**
 * The number of nodes in `value` counted as a tree (shared parts counted each time they are
 * reached), or `undefined` once past `budget`. Cycles exhaust the budget. With `arraysOnly`,
 * objects count as one node each, their insides unvisited (what `$boolean` walks).
 *
 * @example treeSize({ a: [1, 2] }, 10) // 4
 */
export function treeSize(value: unknown, budget: number = MAX_WALK, arraysOnly = false): number | undefined {
  if (typeof value !== "object" || value === null) return 1;
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > budget) return undefined;
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) stack.push(node[i]);
    } else if (!arraysOnly && !isFunctionValue(node)) {
      for (const key in node) if (Object.hasOwn(node, key)) stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return count;
}

/** jsonata's lambdas and built-ins: objects whose insides (their closure) are not data. */
export function isFunctionValue(value: object): boolean {
  return typeof value === "function" || "_jsonata_lambda" in value || "_jsonata_function" in value;
}

/**
 * A key equal for two values exactly when jsonata's deep equality holds (arrays item by item,
 * objects by their keys in any order, scalars by `===`); functions by identity. `budget.chars`
 * bounds the text built: past it, the key is `undefined`.
 *
 * @example equalityKey({ b: 1, a: [true] }, new Map(), { chars: 1000 }) // '{"a":[btrue],"b":n1}'
 */
export function equalityKey(value: unknown, identities: Map<object, number>, budget: { chars: number }): string | undefined {
  const key = keyOf(value, identities, budget);
  return budget.chars < 0 ? undefined : key;
}

function keyOf(value: unknown, identities: Map<object, number>, budget: { chars: number }): string {
  if (budget.chars < 0) return "";
  let key: string;
  if (value === undefined) key = "u";
  else if (value === null) key = "z";
  else if (typeof value === "string") key = JSON.stringify(value);
  else if (typeof value !== "object") key = `${(typeof value)[0]}${String(value)}`;
  else if (isFunctionValue(value)) {
    let id = identities.get(value);
    if (id === undefined) identities.set(value, (id = identities.size));
    key = `f${id}`;
  } else if (Array.isArray(value)) {
    key = `[${value.map((item) => keyOf(item, identities, budget)).join(",")}]`;
  } else {
    const keys = Object.keys(value).sort();
    key = `{${keys.map((name) => `${JSON.stringify(name)}:${keyOf((value as Record<string, unknown>)[name], identities, budget)}`).join(",")}}`;
  }
  budget.chars -= key.length;
  return key;
}
