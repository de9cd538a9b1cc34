import jsonata from "jsonata";

/**
 * JSONata with limits, for the expressions scenarios and invariants carry. jsonata runs user
 * expressions unbounded by default (a runaway loop ran for minutes, deep recursion filled the
 * heap), so every expression here is compiled with a time and a depth limit.
 */
export const EXPRESSION_LIMITS = { timeout: 1000, stack: 200 } as const;

/** A compiled JSONata expression. */
export type Expression = jsonata.Expression;

/** A JSONata error as the library throws it: a plain object, not always an Error. */
interface JsonataErrorLike {
  code?: string;
  position?: number;
  token?: string;
  message?: string;
}

/** Why an expression failed, with where in its source (a character offset) when known. */
export interface ExpressionProblem {
  /** jsonata's error code (`S0201`, `D1012`, …), or `E_EXPRESSION` for errors it did not code. */
  code: string;
  message: string;
  /** Offset of the offending token's first character in the expression's source. */
  offset?: number;
}

/**
 * Compiles an expression with the time and depth limits, returning the syntax error instead of
 * throwing it so a validator can report every expression at once.
 *
 * @example const compiled = compileBounded("$count($world.notes.notes) > 0");
 * if ("problem" in compiled) console.log(compiled.problem.offset);
 */
export function compileBounded(source: string): { expression: Expression } | { problem: ExpressionProblem } {
  try {
    return { expression: jsonata(source, { ...EXPRESSION_LIMITS }) };
  } catch (error) {
    return { problem: expressionProblem(error) };
  }
}

/**
 * jsonata's error as a problem. Its `position` is the offset just past the offending token, so
 * the token's length is taken off to point at where the token starts; `(end)` is the parser's
 * name for the end of the source, which has no length in the source.
 *
 * @example expressionProblem(caught).offset // 4 for "foo bar"'s "bar"
 */
export function expressionProblem(error: unknown): ExpressionProblem {
  const e = (typeof error === "object" && error !== null ? error : { message: String(error) }) as JsonataErrorLike;
  const problem: ExpressionProblem = {
    code: typeof e.code === "string" ? e.code : "E_EXPRESSION",
    message: typeof e.message === "string" ? e.message : String(error),
  };
  if (typeof e.position === "number") {
    const token = typeof e.token === "string" && e.token !== "(end)" ? e.token : "";
    problem.offset = Math.max(0, e.position - token.length);
  }
  return problem;
}

/**
 * jsonata's result as plain JSON: a fresh deep copy without the `sequence` (and other) flags
 * jsonata puts on result arrays, so results compare and serialise like ordinary values.
 * `undefined` inside an object drops the key and inside an array becomes null, as in JSON.
 * Functions, non-finite numbers and cycles are not JSON: they throw a TypeError naming where.
 *
 * @example toPlainJson(await expression.evaluate(input)) // [2, 3], not [2, 3, sequence: true]
 */
export function toPlainJson(value: unknown): unknown {
  return plain(value, "", new Set());
}

function plain(value: unknown, at: string, seen: Set<object>): unknown {
  if (value === null || value === undefined || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw notJson(`the number ${value}`, at);
    return value;
  }
  if (typeof value !== "object" || isJsonataFunction(value)) throw notJson(`a ${typeof value === "object" ? "function" : typeof value}`, at);
  if (seen.has(value)) throw notJson("a circular reference", at);
  seen.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((item, i) => plain(item, `${at}[${i}]`, seen) ?? null);
  } else {
    const entries: Array<[string, unknown]> = [];
    for (const [key, item] of Object.entries(value)) {
      const copy = plain(item, at ? `${at}.${key}` : key, seen);
      if (copy !== undefined) entries.push([key, copy]);
    }
    // fromEntries defines own properties, so a "__proto__" key stays data.
    out = Object.fromEntries(entries);
  }
  seen.delete(value);
  return out;
}

/** jsonata's lambdas and built-in functions are objects carrying these marks. */
function isJsonataFunction(value: object): boolean {
  return "_jsonata_lambda" in value || "_jsonata_function" in value;
}

function notJson(what: string, at: string): TypeError {
  return new TypeError(`${what}${at ? ` at ${at}` : ""} is not a JSON value`);
}
