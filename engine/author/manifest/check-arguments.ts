import { suggestion } from "../source/index.js";
import type { LoadContext } from "./load-context.js";
import type { PathSegment } from "../source/index.js";
import type { CapturedTool } from "../model/index.js";

/** `$args.name` or `` $args.`a name` `` inside an expression. */
const ARGUMENT_READ = /\$args\.(?:([A-Za-z_$][\w$]*)|`([^`]+)`)/g;

/**
 * Warns (`W_UNKNOWN_ARGUMENT`) at each `$args.<name>` a tool's JSONata handler reads that its
 * captured input schema does not declare, with the nearest declared name: a typo there reads
 * nothing and the handler quietly answers as if the argument were missing.
 */
export function checkArgumentReads(tool: CapturedTool, jsonata: unknown, path: PathSegment[], context: LoadContext): void {
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; patternProperties?: unknown } | undefined;
  // A schema that names no arguments, or takes them by pattern, says nothing to hold reads to.
  if (!schema?.properties || schema.patternProperties !== undefined) return;
  const declared = Object.keys(schema.properties);
  const visit = (value: unknown, at: PathSegment[]): void => {
    if (typeof value === "string") {
      for (const match of value.matchAll(ARGUMENT_READ)) {
        const name = match[1] ?? match[2];
        if (declared.includes(name)) continue;
        const offset = (match.index ?? 0) + "$args.".length;
        context.report.warn(
          "W_UNKNOWN_ARGUMENT",
          at,
          `"${tool.name}" reads $args.${name}, which its input schema does not declare.${suggestion(name, declared)}`,
          {
            position: context.report.source.positionInString(at, offset),
            hint: `Arguments of ${tool.name}: ${declared.join(", ") || "none"}.`,
          },
        );
      }
    } else if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...at, i]));
    else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) visit(item, [...at, key]);
  };
  visit(jsonata, path);
}
