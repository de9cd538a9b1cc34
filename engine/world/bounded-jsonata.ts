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

/** jsonata's result as plain JSON, shared with the handlers' runtime. */
export { toPlainJson } from "../handlers/jsonata-plain.js";
