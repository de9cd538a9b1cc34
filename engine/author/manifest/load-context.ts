import type { SchemaCompiler } from "../contract/index.js";
import { notePatterns, type PatternNote } from "../contract/index.js";
import { type CompiledJsonataHandler, compileJsonataHandler } from "../handlers/index.js";
import type { RecipeFiles } from "./recipe-files.js";
import type { Report } from "../source/index.js";
import { referencedSchemas, standalone } from "./schema-refs.js";
import type { PathSegment } from "../source/index.js";
import type { JsonSchema } from "../model/index.js";

/** What every check of one manifest shares. */
export interface LoadContext {
  dir: string;
  /** The files the manifest may name: regular files inside its folder, size-capped. */
  files: RecipeFiles;
  report: Report;
  /** The manifest's named schemas, as written. */
  schemas: Record<string, JsonSchema>;
  /** Named schemas already reported broken: a schema that reaches one is not reported again. */
  brokenSchemas: Set<string>;
  compiler: SchemaCompiler;
  /** Patterns already warned about as running on JavaScript's engine: each is said once. */
  notedPatterns: Set<string>;
  /** The manifest's shared `functions`, compiled: every JSONata handler is given them. */
  functions: CompiledJsonataHandler["functions"];
}

/**
 * Runs a compile and warns (W_PATTERN_FALLBACK, at `path`) about each pattern in it that RE2
 * cannot run and that therefore runs on JavaScript's backtracking engine.
 */
export function compileNotingPatterns<T>(compile: () => T, path: readonly PathSegment[], context: LoadContext, options: { key?: boolean } = {}): T {
  const { result, notes } = notePatterns(compile);
  reportPatternNotes(notes, path, context, options);
  return result;
}

function reportPatternNotes(notes: PatternNote[], path: readonly PathSegment[], context: LoadContext, options: { key?: boolean }): void {
  for (const note of notes) {
    if (context.notedPatterns.has(note.pattern)) continue;
    context.notedPatterns.add(note.pattern);
    const shown = JSON.stringify(note.pattern.length > 200 ? `${note.pattern.slice(0, 200)}…` : note.pattern);
    context.report.warn(
      "W_PATTERN_FALLBACK",
      path,
      `the pattern ${shown} uses ${note.reason}, which RE2 cannot run: it runs on JavaScript's backtracking engine`,
      options,
    );
  }
}

/**
 * A schema written in the manifest, made standalone and compiled to prove it is valid;
 * reports unknown `#/schemas/` names and schemas ajv refuses.
 */
export function checkSchema(schema: JsonSchema, path: readonly PathSegment[], context: LoadContext): JsonSchema | undefined {
  if ([...reachedSchemas(schema, context.schemas)].some((name) => context.brokenSchemas.has(name))) return undefined;
  const resolved = standalone(schema, context.schemas);
  const unknown = findUnknownRefs(schema, context.schemas);
  if (unknown.length > 0) {
    for (const name of unknown) {
      context.report.error("E_SCHEMA_REF", path, `the schema refers to "#/schemas/${name}", which is not declared under schemas`);
    }
    return undefined;
  }
  try {
    compileNotingPatterns(() => context.compiler.compile(resolved), path, context);
  } catch (error) {
    context.report.error("E_JSON_SCHEMA", path, (error as Error).message.replace(/^\[eval-simulate\] /, ""));
    return undefined;
  }
  return resolved;
}

/** The named schemas a schema reaches through `#/schemas/` references, transitively. */
export function reachedSchemas(schema: unknown, named: Record<string, JsonSchema>): Set<string> {
  const reached = new Set<string>();
  const pending = [...referencedSchemas(schema)];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (reached.has(name)) continue;
    reached.add(name);
    if (name in named) pending.push(...referencedSchemas(named[name]));
  }
  return reached;
}

/**
 * Checks the named schemas first, so a broken one is reported once, where it is written, and
 * the schemas that use it are not reported again: unknown names, schemas that only refer to
 * each other in a cycle (no validator could ever finish one), then each compiled.
 */
export function checkNamedSchemas(context: LoadContext, sound: (path: PathSegment[]) => boolean): Record<string, JsonSchema> {
  const named = context.schemas;
  for (const [name, schema] of Object.entries(named)) {
    const path = ["schemas", name];
    if (!sound(path)) {
      context.brokenSchemas.add(name);
      continue;
    }
    const unknown = findUnknownRefs(schema, named);
    for (const missing of unknown) {
      context.report.error("E_SCHEMA_REF", path, `the schema refers to "#/schemas/${missing}", which is not declared under schemas`);
    }
    if (unknown.length > 0) context.brokenSchemas.add(name);
    const cycle = refOnlyCycle(name, named);
    if (cycle) {
      context.report.error("E_SCHEMA_REF", path, `the schemas ${cycle.join(" → ")} only refer to each other: no value can ever be checked against them`, {
        key: true,
      });
      context.brokenSchemas.add(name);
    }
  }
  // A schema that reaches a broken one is broken too, without a report of its own.
  for (const name of Object.keys(named)) {
    if ([...reachedSchemas(named[name], named)].some((reached) => context.brokenSchemas.has(reached))) context.brokenSchemas.add(name);
  }
  const checked: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(named)) {
    if (context.brokenSchemas.has(name)) continue;
    const resolved = checkSchema(schema, ["schemas", name], context);
    if (resolved === undefined) context.brokenSchemas.add(name);
    checked[name] = resolved ?? schema;
  }
  return checked;
}

/** The cycle a schema starts when it is nothing but a `$ref` to one that is nothing but a `$ref`… */
function refOnlyCycle(start: string, named: Record<string, JsonSchema>): string[] | undefined {
  const chain = [start];
  for (let at = named[start]; ; ) {
    const ref = at && typeof at === "object" && Object.keys(at).every((k) => k === "$ref" || k === "description" || k === "title") ? at.$ref : undefined;
    if (typeof ref !== "string" || !ref.startsWith("#/schemas/")) return undefined;
    const next = ref.slice("#/schemas/".length);
    if (next === start) return [...chain, next];
    if (chain.includes(next) || !(next in named)) return undefined;
    chain.push(next);
    at = named[next];
  }
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
export function checkJsonata(spec: unknown, path: readonly PathSegment[], context: LoadContext): CompiledJsonataHandler | undefined {
  const compiled = compileJsonataHandler(spec as Parameters<typeof compileJsonataHandler>[0]);
  if (compiled.ok) return context.functions?.length ? { ...compiled.handler, functions: context.functions } : compiled.handler;
  for (const error of compiled.errors) {
    const at = [...path, ...error.path];
    const code = error.offset === undefined ? "E_JSONATA_BLOCK" : "E_JSONATA_SYNTAX";
    context.report.error(code, at, error.message, {
      position: error.offset === undefined ? undefined : context.report.source.positionInString(at, error.offset),
    });
  }
  return undefined;
}
