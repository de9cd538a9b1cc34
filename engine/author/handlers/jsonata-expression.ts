import { createRequire } from "node:module";
import type { Expression } from "jsonata";
import { registerBoundedBuiltins } from "./jsonata-bounded-builtins.js";
import { DECLINED, DIRECT_MIN_DEPTH, directEvaluator } from "./jsonata-direct.js";
import { GUARD_BINDING, type RunGuard, exitHook, guardEntry } from "./jsonata-guard.js";
import { type SourceSpan, errorSpan } from "./jsonata-position.js";
import { nestedRepetition } from "./jsonata-regex-check.js";

// CommonJS through require: an ESM import of it makes node scan it, and every file it requires,
// for named exports (cjs-module-lexer), a measurable share of each start (docs/performance.md).
const jsonata = createRequire(import.meta.url)("jsonata") as typeof import("jsonata");

/**
 * One JSONata expression of a handler, compiled once when the manifest loads (compiling costs
 * about 230 µs, evaluating a small expression about 12 µs) and evaluated on every call under a
 * run's guard.
 */

/** Caps fixed when an expression is compiled: how large one value it builds may grow. */
export interface ExpressionLimits {
  /** The longest sequence (array) an expression may build; also caps ranges (`[1..n]`). */
  maxSequence: number;
  /** The longest string an expression may build, in UTF-16 code units. */
  maxStringLength: number;
}

/** A fake's state is small; these stop runaway growth long before the heap notices. */
export const DEFAULT_EXPRESSION_LIMITS: Readonly<ExpressionLimits> = { maxSequence: 100_000, maxStringLength: 10_000_000 };

/** Why an expression does not compile, and where in its source. */
export interface JsonataSyntaxProblem extends SourceSpan {
  /** jsonata's code (`S0201`, …), `E_NOW_CALL` for `$now()`, `E_REGEX_BACKTRACK` for a regex that can hang. */
  code: string;
  message: string;
}

/** A compiled expression: its source, its caps, and an evaluation under a run's guard. */
export interface CompiledExpression {
  readonly source: string;
  readonly limits: ExpressionLimits;
  /** The `$names` it reads from outside itself (bindings, functions), without the `$`. */
  readonly references: readonly string[];
  /** jsonata's raw result (sequences and all); throws jsonata's errors and the guard's stops. */
  evaluate(input: unknown, bindings: Record<string, unknown>, guard: RunGuard): Promise<unknown>;
}

const ENTRY_HOOK = Symbol.for("jsonata.__evaluate_entry");
const EXIT_HOOK = Symbol.for("jsonata.__evaluate_exit");

/**
 * Compiles an expression with its caps, or says why it does not compile: jsonata's syntax
 * error, with the offset and length of the offending token in `source`.
 *
 * @example
 * const compiled = compileExpression('{ "id": $args.id }');
 * if (!compiled.ok) console.log(compiled.error.offset, compiled.error.message);
 */
export function compileExpression(
  source: string,
  limits: Partial<ExpressionLimits> = {},
): { ok: true; expression: CompiledExpression } | { ok: false; error: JsonataSyntaxProblem } {
  const caps = { ...DEFAULT_EXPRESSION_LIMITS, ...limits };
  // A compiled expression keeps no state between evaluations (each gets its own frame), so the
  // same text is compiled once per process: manifests repeat handlers across tools and servers.
  const key = `${caps.maxSequence}\n${caps.maxStringLength}\n${source}`;
  let result = compiledByText.get(key);
  if (!result) {
    result = compileUncached(source, caps);
    if (compiledByText.size < 20_000) compiledByText.set(key, result);
  }
  return result;
}

const compiledByText = new Map<string, ReturnType<typeof compileUncached>>();

function compileUncached(source: string, caps: ExpressionLimits): { ok: true; expression: CompiledExpression } | { ok: false; error: JsonataSyntaxProblem } {
  let compiled: Expression;
  try {
    compiled = jsonata(source, { sequence: caps.maxSequence });
  } catch (error) {
    return { ok: false, error: syntaxError(source, error) };
  }
  const { references, nowCall, unsafeRegex } = scanAst(compiled.ast());
  if (unsafeRegex) {
    const literal = `/${unsafeRegex.node.value.source}/`;
    const start = source.lastIndexOf(literal, unsafeRegex.node.position ?? source.length);
    return {
      ok: false,
      error: {
        code: "E_REGEX_BACKTRACK",
        message: `the regular expression ${literal} repeats a group of repeated items (${unsafeRegex.nested}), which can backtrack for minutes on some text and cannot be interrupted: rewrite it so each repetition starts with a fixed character, or without the outer repetition`,
        ...(start >= 0 ? { offset: start, length: literal.length } : { offset: 0, length: 0 }),
      },
    };
  }
  if (nowCall) {
    const span = errorSpan(source, { position: nowCall.position, token: "now" }) ?? { offset: 0, length: 0 };
    return {
      ok: false,
      error: { code: "E_NOW_CALL", message: "`$now` is the fake's clock, an ISO 8601 string, not a function: write `$now`, not `$now()`", ...span },
    };
  }
  // jsonata looks these hooks up by name on every evaluation (undocumented; present in the pinned
  // 2.2.2, and the limits tests fail if an upgrade drops them); its typings take only string names.
  const assign = compiled.assign.bind(compiled) as (name: string | symbol, value: unknown) => void;
  assign(ENTRY_HOOK, guardEntry);
  assign(EXIT_HOOK, exitHook(caps.maxStringLength, caps.maxSequence));
  registerBoundedBuiltins(compiled, caps.maxStringLength, caps.maxSequence);
  // The common shapes (`{ "id": $args.id }`) are read directly when their values allow, jsonata's
  // result exactly; anything else, and any value they decline, is jsonata's (jsonata-direct.ts).
  const direct = directEvaluator(compiled.ast(), caps.maxStringLength);
  const evaluate = (input: unknown, bindings: Record<string, unknown>, guard: RunGuard): Promise<unknown> =>
    compiled.evaluate(input, { ...bindings, [GUARD_BINDING]: guard });
  return {
    ok: true,
    expression: {
      source,
      limits: caps,
      references,
      evaluate: direct
        ? (input, bindings, guard) => {
            const value = guard.limits.maxDepth >= DIRECT_MIN_DEPTH ? direct(bindings) : DECLINED;
            return value === DECLINED ? evaluate(input, bindings, guard) : Promise.resolve(value);
          }
        : evaluate,
    },
  };
}

function syntaxError(source: string, error: unknown): JsonataSyntaxProblem {
  const e = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === "string" ? e.code : "S0000";
  const message = typeof e.message === "string" ? e.message : String(error);
  return { code, message: `${message} (${code})`, ...(errorSpan(source, e) ?? { offset: 0, length: 0 }) };
}

interface AstNode {
  type?: string;
  value?: unknown;
  position?: number;
  procedure?: AstNode;
  lhs?: AstNode;
  arguments?: AstNode[];
  focus?: unknown;
  index?: unknown;
  [key: string]: unknown;
}

/**
 * What the AST tells before any evaluation: the variables an expression reads but does not bind
 * itself (by `:=`, as a lambda's parameter, or as a path's `@$focus`/`#$index`), the first call
 * of `$now` as a function, and the first regex that can backtrack without end.
 */
function scanAst(root: unknown): { references: string[]; nowCall?: AstNode; unsafeRegex?: { node: AstNode & { value: RegExp }; nested: string } } {
  const read = new Set<string>();
  const bound = new Set<string>();
  let nowCall: AstNode | undefined;
  let unsafeRegex: { node: AstNode & { value: RegExp }; nested: string } | undefined;
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach(visit);
    const node = value as AstNode;
    // `$` and `$$` are the context and the root, not bindings.
    if (node.type === "variable" && typeof node.value === "string" && node.value !== "" && node.value !== "$") read.add(node.value);
    if (node.type === "bind" && node.lhs?.type === "variable") bound.add(String(node.lhs.value));
    if (node.type === "lambda") for (const parameter of node.arguments ?? []) bound.add(String(parameter.value));
    if (typeof node.focus === "string") bound.add(node.focus);
    if (typeof node.index === "string") bound.add(node.index);
    if (node.type === "function" && node.procedure?.type === "variable" && node.procedure.value === "now" && !nowCall) {
      nowCall = node.procedure;
    }
    if (node.type === "regex" && node.value instanceof RegExp && !unsafeRegex) {
      const nested = nestedRepetition(node.value.source);
      if (nested) unsafeRegex = { node: node as AstNode & { value: RegExp }, nested };
    }
    for (const key of Object.keys(node)) visit(node[key]);
  };
  visit(root);
  if (nowCall && bound.has("now")) nowCall = undefined;
  return {
    references: [...read].filter((name) => !bound.has(name)).sort(),
    ...(nowCall ? { nowCall } : {}),
    ...(unsafeRegex ? { unsafeRegex } : {}),
  };
}

/**
 * The `$names` an expression reads from its bindings (`args`, `state`, `labelId`, jsonata's own
 * functions such as `count`), without the `$`, sorted.
 *
 * @example referencedBindings(expression) // ["args", "count", "state"] for "$count($state.notes) + $args.n"
 */
export function referencedBindings(expression: CompiledExpression): readonly string[] {
  return expression.references;
}
