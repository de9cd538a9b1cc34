import type { SchemaCompiler } from "../contract/index.js";
import { type CompiledJsonataHandler, compileJsonataHandler } from "../handlers/jsonata-index.js";
import type { Report } from "./report.js";
import { standalone } from "./schema-refs.js";
import type { PathSegment } from "./source-document.js";
import type { JsonSchema } from "./types.js";

/** What every check of one manifest shares. */
export interface LoadContext {
  dir: string;
  report: Report;
  /** The manifest's named schemas, as written. */
  schemas: Record<string, JsonSchema>;
  compiler: SchemaCompiler;
}

/**
 * A schema written in the manifest, made standalone and compiled to prove it is valid;
 * reports unknown `#/schemas/` names and schemas ajv refuses.
 */
export function checkSchema(schema: JsonSchema, path: readonly PathSegment[], context: LoadContext): JsonSchema | undefined {
  const resolved = standalone(schema, context.schemas);
  const unknown = findUnknownRefs(schema, context.schemas);
  if (unknown.length > 0) {
    for (const name of unknown) {
      context.report.error("E_SCHEMA_REF", path, `the schema refers to "#/schemas/${name}", which is not declared under schemas`);
    }
    return undefined;
  }
  try {
    context.compiler.compile(resolved);
  } catch (error) {
    context.report.error("E_JSON_SCHEMA", path, (error as Error).message.replace(/^\[eval-simulate\] /, ""));
    return undefined;
  }
  return resolved;
}

function findUnknownRefs(schema: unknown, named: Record<string, JsonSchema>): string[] {
  const unknown: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string" && value.startsWith("#/schemas/")) {
          const name = value.slice("#/schemas/".length);
          if (!(name in named)) unknown.push(name);
        } else visit(value);
      }
    }
  };
  visit(schema);
  return unknown;
}

/** Compiles a JSONata handler, placing each syntax error at its line and column in the YAML. */
export function checkJsonata(
  spec: unknown,
  path: readonly PathSegment[],
  context: LoadContext,
): CompiledJsonataHandler | undefined {
  const compiled = compileJsonataHandler(spec as Parameters<typeof compileJsonataHandler>[0]);
  if (compiled.ok) return compiled.handler;
  for (const error of compiled.errors) {
    const at = [...path, ...error.path];
    const code = error.offset === undefined ? "E_JSONATA_BLOCK" : "E_JSONATA_SYNTAX";
    context.report.error(code, at, error.message, {
      position: error.offset === undefined ? undefined : context.report.source.positionInString(at, error.offset),
    });
  }
  return undefined;
}
