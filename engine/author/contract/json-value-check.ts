/**
 * Whether a value can travel as JSON unchanged. `JSON.parse` reads `1e309` as Infinity and
 * `JSON.stringify` writes Infinity and NaN as `null`, so a non-finite number that reaches state or
 * an answer is shown as something else than what was stored, and breaks every later read of it.
 * The walk is iterative: a value nested deeper than any stack (a 1 MiB body of `[`) is measured,
 * not recursed into.
 */

import { isCommitted } from "../../core/record/index.js";

/** State (an entity's value, its own level included) nested deeper than this is refused. */
export const MAX_STATE_DEPTH = 256;
/**
 * Requests (tool arguments, API bodies and parameters) and answers nested deeper than this are
 * refused: deep enough for an answer that wraps any state, shallow enough for every stack.
 */
export const MAX_MESSAGE_DEPTH = 1_000;

/** Why a value is not plain JSON, and where. */
export interface JsonValueProblem {
  /** A JSON Pointer ("" for the value itself); past 8 levels it ends in `/…`, so a message stays short. */
  path: string;
  /** Worded to follow the path, as ajv words its errors: `must be a finite number, not Infinity`. */
  message: string;
}

/** What to check beside non-finite numbers. */
export interface JsonValueCheckOptions {
  /** Refuse values nested deeper than this; unlimited when unset. */
  maxDepth?: number;
  /**
   * Pass over frozen objects: committed state is frozen once it has passed this check, so a new
   * value built from it costs only its new parts. (A handler that freezes its own objects opts
   * them out.)
   */
  skipFrozen?: boolean;
}

/** The recursive walk goes this deep; past it (or on a cycle) the iterative walk takes over. */
const RECURSION_LIMIT = MAX_MESSAGE_DEPTH;

const SHOWN_LEVELS = 8;

const clip = (key: string) => (key.length > 40 ? `${key.slice(0, 37)}...` : key);

const pointer = (path: ReadonlyArray<string | number>) =>
  path
    .slice(0, SHOWN_LEVELS)
    .map((s) => `/${clip(String(s)).replace(/~/g, "~0").replace(/\//g, "~1")}`)
    .join("") + (path.length > SHOWN_LEVELS ? "/…" : "");

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
  // Most values are plain, shallow trees: a recursive pass (several times faster) says so, and
  // only a value it finds fault with, or one too deep for it, is walked again to say where.
  const limit = Math.min(options.maxDepth ?? Number.POSITIVE_INFINITY, RECURSION_LIMIT);
  if (isPlain(value, 0, limit, options.skipFrozen === true)) return undefined;
  return locate(value, options);
}

/** True when `value` is plain JSON no deeper than `limit` (a cycle is too deep). */
function isPlain(value: unknown, depth: number, limit: number, skipFrozen: boolean): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (value === null || typeof value !== "object") return typeof value !== "bigint" && typeof value !== "function" && typeof value !== "symbol";
  if (skipFrozen && isCommitted(value)) return true;
  if (depth >= limit) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isPlain(value[i], depth + 1, limit, skipFrozen)) return false;
    return true;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) if (!isPlain((value as Record<string, unknown>)[keys[i]], depth + 1, limit, skipFrozen)) return false;
  return true;
}

/** The iterative walk: finds where the problem is, at any depth, cycles included. */
function locate(value: unknown, options: JsonValueCheckOptions): JsonValueProblem | undefined {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const skipFrozen = options.skipFrozen === true;
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
    if (done.has(node) || (skipFrozen && isCommitted(node))) return undefined;
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
