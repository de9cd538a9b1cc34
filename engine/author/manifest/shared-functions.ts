/**
 * The manifest's `functions`: JSONata functions declared once and handed to every JSONata
 * handler, which binds them by name before its first part runs (`$open($state.tasks)`), so an
 * expression repeated across tools is written once.
 */
import { type CompiledExpression, compileExpression } from "../handlers/index.js";
import type { LoadContext } from "./load-context.js";

/** A shared function, compiled: its definition evaluates to the function. */
export interface SharedFunction {
  readonly name: string;
  readonly expression: CompiledExpression;
}

/** Names a function cannot take: the bindings every handler already has. */
const RESERVED = new Set(["args", "request", "state", "next", "world", "now", "scenario", "millis", "labelId", "notImplemented", "log"]);

/**
 * Compiles each of the manifest's functions, reporting one that does not parse, is not a
 * function definition, or takes a binding's name.
 *
 * @example compileSharedFunctions({ open: "function($t) { $t[status = 'open'] }" }, context)
 */
export function compileSharedFunctions(functions: Record<string, unknown> | undefined, context: LoadContext): SharedFunction[] {
  const compiled: SharedFunction[] = [];
  for (const [name, source] of Object.entries(functions ?? {})) {
    if (typeof source !== "string") continue;
    const at = ["functions", name];
    if (RESERVED.has(name)) {
      context.report.error("E_JSONATA_BLOCK", at, `"${name}" is a binding every handler has: name the function otherwise`, { key: true });
      continue;
    }
    const result = compileExpression(source);
    if (!result.ok) {
      context.report.error("E_JSONATA_SYNTAX", at, result.error.message, { position: context.report.source.positionInString(at, result.error.offset) });
      continue;
    }
    if (!/^\s*(?:function|λ)\s*\(/.test(source)) {
      context.report.error("E_JSONATA_BLOCK", at, `"${name}" is not a function definition: write function($a, …) { … }`);
      continue;
    }
    compiled.push({ name, expression: result.expression });
  }
  return compiled;
}

/** The sources of the functions that compiled, by name: what invariants bind (they run on their own runtime). */
export function sharedFunctionSources(context: LoadContext, functions: unknown): Record<string, string> {
  const compiled = new Set((context.functions ?? []).map((fn) => fn.name));
  if (!functions || typeof functions !== "object") return {};
  return Object.fromEntries(Object.entries(functions).filter(([name, source]) => compiled.has(name) && typeof source === "string")) as Record<string, string>;
}
