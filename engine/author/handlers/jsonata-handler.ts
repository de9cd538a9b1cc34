import type { Static } from "typebox";
import type { JsonataHandler } from "../../../schema/handlers.js";
import type { HandlerPath } from "./jsonata-errors.js";
import { type CompiledExpression, type ExpressionLimits, compileExpression } from "./jsonata-expression.js";

/** A `jsonata` value as the manifest holds it: an expression (the answer) or a block. */
export type JsonataHandlerSpec = Static<typeof JsonataHandler>;

/** The names every handler gets: a `let` of the same name would hide them. */
export const BUILT_IN_BINDINGS = ["args", "state", "next", "world", "now", "scenario", "request", "labelId", "notImplemented", "log"] as const;

const BLOCK_KEYS = ["let", "fail", "set", "return", "isError"];

/** A handler compiled once: every part's expression, in the order the block runs them. */
export interface CompiledJsonataHandler {
  /** `expression` for the string form (its value is the answer), `block` otherwise. */
  readonly form: "expression" | "block";
  /** In the order written: each sees those before it. */
  readonly let: ReadonlyArray<{ readonly name: string; readonly expression: CompiledExpression }>;
  readonly fail: ReadonlyArray<{ readonly if: CompiledExpression; readonly message: CompiledExpression }>;
  readonly set: ReadonlyArray<{ readonly entity: string; readonly expression: CompiledExpression }>;
  /** The answer; the string form's expression. */
  readonly return?: CompiledExpression;
  readonly isError?: CompiledExpression;
  /** The entities `set` writes. */
  readonly writes: readonly string[];
  /** The manifest's shared functions, bound by name (in order, each seeing those before it) before `let`. */
  readonly functions?: ReadonlyArray<{ readonly name: string; readonly expression: CompiledExpression }>;
}

/** Why a handler does not compile; `offset` and `length` locate a syntax error in the part's source. */
export interface HandlerCompileError {
  path: HandlerPath;
  /** jsonata's syntax code (`S0201`, …), `E_NOW_CALL`, or a block error (`E_BLOCK_*`). */
  code: string;
  message: string;
  offset?: number;
  length?: number;
}

/**
 * Compiles a handler, reporting every problem at once: each part's syntax error, a `let` that
 * hides a built-in binding, `$next` outside `return`/`isError`, a block with nothing to do.
 *
 * @example
 * const compiled = compileJsonataHandler({ set: { notes: "$append($state.notes, [$args])" }, return: "$args" });
 * if (!compiled.ok) for (const e of compiled.errors) console.log(e.path.join("."), e.message);
 */
export function compileJsonataHandler(
  spec: JsonataHandlerSpec,
  limits: Partial<ExpressionLimits> = {},
): { ok: true; handler: CompiledJsonataHandler } | { ok: false; errors: HandlerCompileError[] } {
  const errors: HandlerCompileError[] = [];
  const compile = (source: unknown, path: HandlerPath): CompiledExpression | undefined => {
    if (typeof source !== "string") {
      errors.push({ path, code: "E_BLOCK_NOT_EXPRESSION", message: "expected a JSONata expression (a string)" });
      return undefined;
    }
    const compiled = compileExpression(source, limits);
    if (compiled.ok) return compiled.expression;
    errors.push({ path, ...compiled.error });
    return undefined;
  };

  if (typeof spec === "string") {
    const expression = compile(spec, []);
    if (!expression) return { ok: false, errors };
    return { ok: true, handler: { form: "expression", let: [], fail: [], set: [], return: expression, writes: [] } };
  }
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    return {
      ok: false,
      errors: [{ path: [], code: "E_BLOCK_SHAPE", message: "a JSONata handler is an expression (a string) or a block (let, fail, set, return, isError)" }],
    };
  }

  for (const key of Object.keys(spec)) {
    if (!BLOCK_KEYS.includes(key)) {
      errors.push({ path: [key], code: "E_BLOCK_UNKNOWN_KEY", message: `a JSONata block has no \`${key}\`; its keys are ${BLOCK_KEYS.join(", ")}` });
    }
  }
  if (spec.return === undefined && spec.set === undefined) {
    errors.push({
      path: [],
      code: "E_BLOCK_NO_EFFECT",
      message: "a JSONata block needs `return` (the answer) or `set` (the state change), or both: add `return: '<expression>'`",
    });
  }

  // Names are identifiers, never integer-like, so the object keeps the order they were written in.
  const lets: Array<{ name: string; expression: CompiledExpression }> = [];
  for (const [name, source] of entriesOf(spec.let, ["let"], errors)) {
    if ((BUILT_IN_BINDINGS as readonly string[]).includes(name)) {
      errors.push({
        path: ["let", name],
        code: "E_BLOCK_SHADOWS",
        message: `the binding \`$${name}\` would hide the built-in \`$${name}\`: give it another name`,
      });
    }
    const expression = compile(source, ["let", name]);
    if (expression) lets.push({ name, expression });
  }

  const fails: Array<{ if: CompiledExpression; message: CompiledExpression }> = [];
  if (spec.fail !== undefined && !Array.isArray(spec.fail)) {
    errors.push({ path: ["fail"], code: "E_BLOCK_SHAPE", message: "`fail` is a list of guards: - { if: <expression>, message: <expression> }" });
  }
  (Array.isArray(spec.fail) ? spec.fail : []).forEach((guard, i) => {
    const condition = compile((guard as { if?: unknown } | null)?.if, ["fail", i, "if"]);
    const before = errors.length;
    const message = compile((guard as { message?: unknown } | null)?.message, ["fail", i, "message"]);
    // The usual slip: plain text where an expression goes.
    if (errors.length > before && errors[before]!.offset !== undefined) {
      errors[before]!.message += `; a message is an expression: quote text as a JSONata string, '"A note needs a title"'`;
    }
    if (condition && message) fails.push({ if: condition, message });
  });

  const sets: Array<{ entity: string; expression: CompiledExpression }> = [];
  for (const [entity, source] of entriesOf(spec.set, ["set"], errors)) {
    const expression = compile(source, ["set", entity]);
    if (expression) sets.push({ entity, expression });
  }

  const answer = spec.return === undefined ? undefined : compile(spec.return, ["return"]);
  const isError = spec.isError === undefined ? undefined : compile(spec.isError, ["isError"]);

  // `$next` is the state after `set`, so only the parts after `set` can see it.
  const early: Array<[HandlerPath, CompiledExpression]> = [
    ...lets.map((l): [HandlerPath, CompiledExpression] => [["let", l.name], l.expression]),
    ...fails.flatMap(
      (f, i): Array<[HandlerPath, CompiledExpression]> => [
        [["fail", i, "if"], f.if],
        [["fail", i, "message"], f.message],
      ],
    ),
    ...sets.map((s): [HandlerPath, CompiledExpression] => [["set", s.entity], s.expression]),
  ];
  for (const [path, expression] of early) {
    if (expression.references.includes("next")) {
      errors.push({ path, code: "E_BLOCK_NEXT", message: "`$next` (the state after `set`) exists only in `return` and `isError`; use `$state` here" });
    }
  }

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    handler: {
      form: "block",
      let: lets,
      fail: fails,
      set: sets,
      ...(answer ? { return: answer } : {}),
      ...(isError ? { isError } : {}),
      writes: sets.map((s) => s.entity),
    },
  };
}

function entriesOf(value: unknown, path: HandlerPath, errors: HandlerCompileError[]): Array<[string, unknown]> {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    errors.push({ path, code: "E_BLOCK_SHAPE", message: `\`${path.join(".")}\` maps names to JSONata expressions` });
    return [];
  }
  return Object.entries(value);
}
