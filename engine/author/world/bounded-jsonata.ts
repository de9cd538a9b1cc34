import { compileExpression, type CompiledExpression } from "../handlers/index.js";
import { RunGuard, type RunStop, findStop } from "../handlers/index.js";
import { watched } from "../handlers/index.js";

/**
 * JSONata with limits, for the expressions scenarios and invariants carry. They run under the
 * same guard as handlers (one deadline, a depth limit, size caps, bounded built-ins, range
 * bounds checked, the event loop kept turning), so a `$expr` or an invariant that runs away is
 * an error `validate` reports, never a hung or crashed process.
 */
export const EXPRESSION_LIMITS = { timeout: 1000, stack: 200 } as const;

/**
 * A world's values may be generated in bulk (`[1..200000].{ ... }`), so its sequences may grow
 * to jsonata's own range cap; strings keep the handlers' cap.
 */
const WORLD_CAPS = { maxSequence: 10_000_000, maxStringLength: 10_000_000 } as const;

/** A compiled scenario or invariant expression. */
export interface Expression {
  readonly source: string;
  /** Evaluates under a fresh guard of EXPRESSION_LIMITS; a limit throws a jsonata-shaped error (`code`, `message`). */
  evaluate(input: unknown, bindings?: Record<string, unknown>): Promise<unknown>;
}

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
  const compiled = compileExpression(source, WORLD_CAPS);
  if (!compiled.ok) {
    const { code, message, offset } = compiled.error;
    const suffix = ` (${code})`;
    return { problem: { code, message: message.endsWith(suffix) ? message.slice(0, -suffix.length) : message, offset } };
  }
  return { expression: bounded(compiled.expression) };
}

function bounded(expression: CompiledExpression): Expression {
  return {
    source: expression.source,
    async evaluate(input, bindings = {}) {
      const guard = new RunGuard({ timeoutMs: EXPRESSION_LIMITS.timeout, maxDepth: EXPRESSION_LIMITS.stack });
      try {
        return await watched(() => expression.evaluate(input, bindings, guard));
      } catch (error) {
        const stop = findStop(error);
        throw stop ? stopError(stop) : error;
      }
    },
  };
}

/** A guard's stop in jsonata's own error shape, so the callers' error handling reads it as one. */
function stopError(stop: RunStop): JsonataErrorLike {
  const where = { ...(stop.position === undefined ? {} : { position: stop.position }), ...(stop.token === undefined ? {} : { token: stop.token }) };
  switch (stop.reason) {
    case "timeout":
      return { code: "D1012", message: `Evaluation timeout: the expression ran past its ${EXPRESSION_LIMITS.timeout} ms limit`, ...where };
    case "stalled":
      return {
        code: "D1012",
        message: `Evaluation timeout: the expression blocked the process for over ${stop.detail} in one step and was stopped by the watchdog`,
        ...where,
      };
    case "depth":
      return {
        code: "D1011",
        message: `Stack overflow: the expression nested evaluations deeper than ${EXPRESSION_LIMITS.stack} (a recursion that never ends?)`,
        ...where,
      };
    case "too-large": {
      const message = stop.refusal
        ? `the expression ${stop.refusal}`
        : stop.detail === "memory"
          ? "the expression filled the process's memory and was stopped"
          : `the expression built ${stop.detail}, past its limit of ${stop.detail.includes("character") ? `${WORLD_CAPS.maxStringLength} characters` : `${WORLD_CAPS.maxSequence} items`}`;
      return { code: "E_TOO_LARGE", message, ...where };
    }
    default:
      return { code: "E_EXPRESSION", message: `the expression was stopped (${stop.reason}${stop.detail ? `: ${stop.detail}` : ""})`, ...where };
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
export { toPlainJson } from "../handlers/index.js";
