/**
 * A direct evaluator for the handful of JSONata shapes most handlers' answers are made of:
 * literals, `$name`, `$name.key.key` and object constructors with literal keys (`{ "id":
 * $args.id, "counter": $state.counter }`), nested. jsonata evaluates each of those node by node
 * through promises and the guard's hooks, ~30 µs a call; this reads the same values in well
 * under 1 µs. It gives jsonata's result exactly or declines: any value it meets that jsonata
 * treats specially (an array, whose paths map and flatten; a function, its own or jsonata's; anything not a plain
 * object; a key found only on a prototype; a string past the expression's cap, which jsonata's
 * exit hook refuses) makes it return `DECLINED`, and jsonata evaluates the expression as
 * before, guard and all. What it evaluates does work bounded by the expression's size and
 * builds nothing larger than it, so the run's limits hold without the hooks; the run's time
 * limit and abort are still checked before every expression (jsonata-run.ts).
 */

/** What a direct evaluator returns when jsonata must evaluate the expression instead. */
export const DECLINED: unique symbol = Symbol("declined");

/** Reads an expression's value from its bindings, or declines. */
export type DirectEvaluator = (bindings: Record<string, unknown>) => unknown;

interface Node {
  type?: unknown;
  value?: unknown;
  steps?: Node[];
  lhs?: unknown;
  [key: string]: unknown;
}

/** The node keys each shape may carry; any other (stages, predicates, grouping, focus, …) is not this shape. */
const ALLOWED: Record<string, ReadonlySet<string>> = {
  literal: new Set(["type", "value", "position"]),
  path: new Set(["type", "steps", "position"]),
  object: new Set(["type", "value", "lhs", "position"]),
};

/**
 * The direct evaluator of an expression's AST, or undefined when the expression is not made
 * only of the shapes above.
 *
 * @example directEvaluator(jsonata('{ "id": $args.id }').ast())?.({ args: { id: "a" } }); // { id: "a" }
 */
export function directEvaluator(ast: unknown, maxStringLength: number): DirectEvaluator | undefined {
  return compileNode(ast, 0, maxStringLength);
}

function only(node: Node, shape: keyof typeof ALLOWED): boolean {
  return Object.keys(node).every((key) => ALLOWED[shape].has(key));
}

/** Nesting past this is left to jsonata: a handler's answer is a few levels deep. */
const MAX_NESTING = 16;

/**
 * The evaluation depth jsonata's guard must allow for a direct evaluation to stand in for it:
 * jsonata nests about three evaluations per level of an object, and a path's steps one more.
 */
export const DIRECT_MIN_DEPTH = 4 * (MAX_NESTING + 2);

function compileNode(raw: unknown, depth: number, maxString: number): DirectEvaluator | undefined {
  if (depth > MAX_NESTING || typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const node = raw as Node;
  if (node.type === "string" || node.type === "number" || (node.type === "value" && (node.value === true || node.value === false || node.value === null))) {
    if (!only(node, "literal") || (typeof node.value === "string" && node.value.length > maxString)) return undefined;
    const value = node.value;
    return () => value;
  }
  if (node.type === "variable") return only(node, "literal") ? variableReader(node.value, maxString) : undefined;
  if (node.type === "path") {
    if (!only(node, "path") || !Array.isArray(node.steps) || node.steps.length < 2) return undefined;
    const [first, ...rest] = node.steps;
    if (first?.type !== "variable" || !only(first, "literal")) return undefined;
    const read = variableReader(first.value, maxString);
    const keys: string[] = [];
    for (const step of rest) {
      if (step?.type !== "name" || !only(step, "literal") || typeof step.value !== "string") return undefined;
      keys.push(step.value);
    }
    if (!read) return undefined;
    return (bindings) => {
      let value = read(bindings);
      for (const key of keys) {
        if (value === DECLINED || value === undefined) return value;
        value = member(value, key, maxString);
      }
      return value;
    };
  }
  if (node.type === "unary" && node.value === "{") {
    if (!only(node, "object") || !Array.isArray(node.lhs)) return undefined;
    const pairs: Array<[string, DirectEvaluator]> = [];
    const keys = new Set<string>();
    for (const pair of node.lhs as unknown[]) {
      if (!Array.isArray(pair) || pair.length !== 2) return undefined;
      const [keyNode, valueNode] = pair as [Node, unknown];
      // A repeated key is jsonata's error D1009, and `__proto__` would set the object's prototype there: both left to jsonata.
      if (keyNode?.type !== "string" || !only(keyNode, "literal") || typeof keyNode.value !== "string") return undefined;
      if (keyNode.value === "__proto__" || keys.has(keyNode.value)) return undefined;
      keys.add(keyNode.value);
      const value = compileNode(valueNode, depth + 1, maxString);
      if (!value) return undefined;
      pairs.push([keyNode.value, value]);
    }
    return (bindings) => {
      // jsonata builds its objects without a prototype.
      const result: Record<string, unknown> = Object.create(null);
      for (const [key, evaluate] of pairs) {
        const value = evaluate(bindings);
        if (value === DECLINED) return DECLINED;
        // jsonata leaves out a key whose value is nothing.
        if (value !== undefined) result[key] = value;
      }
      return result;
    };
  }
  return undefined;
}

/** `$name` from the run's own bindings; `$` (the context), `$$` (the root) and jsonata's own functions are not read here. */
function variableReader(name: unknown, maxString: number): DirectEvaluator | undefined {
  if (typeof name !== "string" || name === "" || name === "$") return undefined;
  return (bindings) => (Object.hasOwn(bindings, name) ? checked(bindings[name], maxString) : DECLINED);
}

/** `value.key` as jsonata reads it, for the values read here: a plain object's own key, nothing on a scalar. */
function member(value: unknown, key: string, maxString: number): unknown {
  if (value === null || typeof value !== "object") return undefined;
  if (Object.hasOwn(value, key)) return checked((value as Record<string, unknown>)[key], maxString);
  // A key an object has only through its prototype (`constructor`, `toString`) is jsonata's to read.
  return key in value ? DECLINED : undefined;
}

/** The value itself when jsonata would use it as it is; `DECLINED` for arrays, functions, objects that are not plain and strings past the cap. */
function checked(value: unknown, maxString: number): unknown {
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") return DECLINED;
  if (typeof value === "string") return value.length > maxString ? DECLINED : value;
  if (value === null || typeof value !== "object") return value;
  // jsonata's own functions are plain objects it marks; a path reads nothing from them.
  if (Array.isArray(value) || "_jsonata_lambda" in value || "_jsonata_function" in value) return DECLINED;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null ? value : DECLINED;
}
