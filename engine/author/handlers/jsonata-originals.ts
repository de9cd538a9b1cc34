import { createRequire } from "node:module";

// CommonJS through require: an ESM import of it makes node scan it, and every file it requires,
// for named exports (cjs-module-lexer), a measurable share of each start (docs/performance.md).
const jsonata = createRequire(import.meta.url)("jsonata") as typeof import("jsonata");

/** A jsonata built-in as a value: its implementation, called with jsonata's environment as `this`. */
export interface BuiltinFunction {
  implementation: (...args: unknown[]) => unknown;
}

/** The built-ins the engine wraps with bounds, by name. */
const WRAPPED = [
  "pad",
  "join",
  "sort",
  "distinct",
  "string",
  "clone",
  "boolean",
  "not",
  "lookup",
  "split",
  "formatNumber",
  "formatInteger",
  "fromMillis",
  "toMillis",
] as const;

export type WrappedName = (typeof WRAPPED)[number];

let originals: Promise<Record<WrappedName, BuiltinFunction>> | undefined;

/**
 * jsonata's own implementations of the wrapped built-ins, read once from a throwaway expression,
 * so a bounded version can hand over to the original once its arguments are known to be safe.
 *
 * @example (await jsonataBuiltins()).pad.implementation.call(this, str, width, char)
 */
export function jsonataBuiltins(): Promise<Record<WrappedName, BuiltinFunction>> {
  originals ??= jsonata(`{ ${WRAPPED.map((name) => `'${name}': $${name}`).join(", ")} }`).evaluate({}) as Promise<Record<WrappedName, BuiltinFunction>>;
  return originals;
}
