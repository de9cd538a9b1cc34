/**
 * jsonata's results as plain JSON. jsonata returns arrays flagged `sequence: true` (and
 * `keepSingleton`, `outerWrapper`, `tupleStream`, `cons`), may return parts of its input as they
 * are, and says "nothing" with `undefined`. A handler's answer and state must be plain values
 * that share nothing with the state they came from, so every result is copied here.
 */

import { isCommitted } from "../../core/record/index.js";

/** Why a result is not JSON, and where in it. */
export class NotJsonError extends Error {
  constructor(
    readonly what: string,
    readonly at: string,
  ) {
    super(`${what}${at ? ` at ${at}` : ""} is not a JSON value`);
    this.name = "NotJsonError";
  }
}

/**
 * A fresh deep copy as plain JSON: arrays without jsonata's flags, `undefined` dropped from
 * objects and turned into null inside arrays (as JSON.stringify does), top-level `undefined`
 * kept (the caller decides what "nothing" means). Functions, non-finite numbers and cycles throw
 * a NotJsonError naming where.
 *
 * @example toPlainJson(await expression.evaluate(input)) // [2, 3], not [2, 3, sequence: true]
 */
export function toPlainJson(value: unknown): unknown {
  const walk = { path: [] as Array<string | number>, ancestors: new Set<object>(), budget: MAX_VALUES };
  return plain(value, walk);
}

/** More values than this in one result end the run: copying them could exhaust the heap. */
export const MAX_VALUES = 2_000_000;

interface Walk {
  /** Where the walk is, kept as segments: formatted only when there is an error to name. */
  path: Array<string | number>;
  ancestors: Set<object>;
  budget: number;
}

const where = (path: Array<string | number>) => path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");

function plain(value: unknown, walk: Walk): unknown {
  if (value === null || value === undefined || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new NotJsonError(`the number ${value}`, where(walk.path));
    return value;
  }
  if (typeof value !== "object") throw new NotJsonError(`a ${typeof value}`, where(walk.path));
  // Committed state is frozen plain JSON already: a result may share it, since nothing can change it.
  if (isCommitted(value) && !(value as { sequence?: boolean }).sequence) return value;
  if (isJsonataFunction(value)) throw new NotJsonError("a function", where(walk.path));
  if (walk.ancestors.has(value)) throw new NotJsonError("a circular reference", where(walk.path));
  walk.ancestors.add(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    if ((walk.budget -= value.length) < 0) throw new NotJsonError(`a result of more than ${MAX_VALUES} values`, where(walk.path));
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      walk.path.push(i);
      items[i] = plain(value[i], walk) ?? null;
      walk.path.pop();
    }
    copy = items;
  } else {
    const keys = Object.keys(value);
    if ((walk.budget -= keys.length) < 0) throw new NotJsonError(`a result of more than ${MAX_VALUES} values`, where(walk.path));
    const entries: Array<[string, unknown]> = [];
    for (const key of keys) {
      walk.path.push(key);
      const item = plain((value as Record<string, unknown>)[key], walk);
      walk.path.pop();
      if (item !== undefined) entries.push([key, item]);
    }
    // fromEntries defines own properties, so a "__proto__" key stays data.
    copy = Object.fromEntries(entries);
  }
  walk.ancestors.delete(value);
  return copy;
}

/** jsonata's lambdas and built-ins are objects carrying these marks. */
function isJsonataFunction(value: object): boolean {
  return "_jsonata_lambda" in value || "_jsonata_function" in value;
}

/**
 * JSONata's effective boolean value (the language's `$boolean`): nothing, false, 0, "", null,
 * empty arrays and objects and functions are false; an array is true when any item is.
 *
 * @example isTruthy(["", 0, "x"]) // true
 */
export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.some(isTruthy);
  if (typeof value === "string") return value.length > 0;
  if (typeof value === "number") return value !== 0 && !Number.isNaN(value);
  if (typeof value === "boolean") return value;
  if (typeof value === "function") return false;
  if (typeof value === "object") return !isJsonataFunction(value) && Object.keys(value).length > 0;
  return false;
}
