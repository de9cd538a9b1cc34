/**
 * Whether a value can travel as JSON unchanged. `JSON.parse` reads `1e309` as Infinity and
 * `JSON.stringify` writes Infinity and NaN as `null`, so a non-finite number that reaches state or
 * an answer is shown as something else than what was stored, and breaks every later read of it.
 * The walk is iterative: a value nested deeper than any stack (a 1 MiB body of `[`) is measured,
 * not recursed into.
 */

/** Values nested deeper than this are refused where they would be kept (state, answers). */
export const MAX_JSON_DEPTH = 256;

/** Why a value is not plain JSON, and where: `path` is a JSON Pointer ("" for the value itself). */
export interface JsonValueProblem {
  path: string;
  /** Worded to follow the path, as ajv words its errors: `must be a finite number, not Infinity`. */
  message: string;
}

/** What to check beside non-finite numbers. */
export interface JsonValueCheckOptions {
  /** Refuse values nested deeper than this; unlimited when unset. */
  maxDepth?: number;
}

const pointer = (path: ReadonlyArray<string | number>) => path.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");

/**
 * The first place where `value` is not plain JSON: a non-finite number, a bigint, a function or
 * symbol, a circular reference, or (with `maxDepth`) nesting deeper than the limit. `undefined`
 * is allowed (JSON leaves it out, as every encoder here does).
 *
 * @example
 * jsonValueProblem({ offset: Infinity }); // { path: "/offset", message: "must be a finite number, not Infinity" }
 * jsonValueProblem({ a: [1, 2] }); // undefined
 */
export function jsonValueProblem(value: unknown, options: JsonValueCheckOptions = {}): JsonValueProblem | undefined {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  // Each frame is a container being walked: its keys, the next key's index, its place in the path.
  type Frame = { node: object; keys: string[] | number; next: number };
  const path: Array<string | number> = [];
  const stack: Frame[] = [];
  const onPath = new Set<object>();
  const done = new WeakSet<object>();
  const leaf = (item: unknown): string | undefined => {
    if (typeof item === "number") return Number.isFinite(item) ? undefined : `must be a finite number, not ${item}`;
    if (typeof item === "bigint") return "must be a JSON number, not a bigint";
    if (typeof item === "function" || typeof item === "symbol") return `must be a JSON value, not a ${typeof item}`;
    return undefined;
  };
  const enter = (node: object): JsonValueProblem | undefined => {
    if (onPath.has(node)) return { path: pointer(path), message: "must not refer to itself (a circular reference)" };
    if (done.has(node)) return undefined;
    if (stack.length >= maxDepth) return { path: pointer(path), message: `nests deeper than ${maxDepth} levels` };
    onPath.add(node);
    stack.push({ node, keys: Array.isArray(node) ? node.length : Object.keys(node), next: 0 });
    return undefined;
  };

  const first = leaf(value);
  if (first) return { path: "", message: first };
  if (value === null || typeof value !== "object") return undefined;
  const root = enter(value);
  if (root) return root;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const count = typeof frame.keys === "number" ? frame.keys : frame.keys.length;
    if (frame.next >= count) {
      stack.pop();
      onPath.delete(frame.node);
      done.add(frame.node);
      if (stack.length > 0) path.pop();
      continue;
    }
    const key = typeof frame.keys === "number" ? frame.next : frame.keys[frame.next];
    frame.next++;
    const item = (frame.node as Record<string | number, unknown>)[key];
    path.push(key);
    const problem = leaf(item);
    if (problem) return { path: pointer(path), message: problem };
    if (item !== null && typeof item === "object") {
      const refused = enter(item);
      if (refused) return refused;
      if (stack[stack.length - 1].node === item) continue;
    }
    path.pop();
  }
  return undefined;
}

/**
 * A problem as one phrase, ajv-style: `data/offset must be a finite number, not Infinity`.
 *
 * @example describeJsonValueProblem({ path: "/a", message: "must be a finite number, not NaN" }, "data"); // "data/a must be ..."
 */
export function describeJsonValueProblem(problem: JsonValueProblem, root: string): string {
  return `${root}${problem.path} ${problem.message}`;
}
