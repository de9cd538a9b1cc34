/**
 * Reading answers back: the checks of a Recipe (and the fakes' own tests) turn a tool's text or
 * structured content into the value it answered, proving it is in the tool's format and schema.
 */
import type { AnswerSpec } from "./answer.js";
import { createSchemaCompiler, type SchemaCompiler, type SchemaIssue } from "./schema-validator.js";
import type { JsonSchema } from "./schema-walk.js";
import { decodeToon } from "./toon.js";

/** The value an answer holds, or why it holds none. `issues` is empty when the text is unreadable. */
export type AnswerReading = { ok: true; value: unknown } | { ok: false; error: string; issues: SchemaIssue[] };

/** Where a tool result's answer is: its text content, and its structured content if any. */
export interface ResultParts {
  text?: string;
  structured?: unknown;
}

export interface ReadOptions {
  /** The compiler for answer schemas; by default one shared by the readers. */
  compiler?: SchemaCompiler;
}

// The readers' own compiler, made on first use. Sharing it is safe: it caches by schema object,
// never by `$id`, so two answers share a validator only when they share the very schema object.
let readersCompiler: SchemaCompiler | undefined;

function compilerOf(options: ReadOptions): SchemaCompiler {
  return options.compiler ?? (readersCompiler ??= createSchemaCompiler());
}

/**
 * Reads an answer's text back into its value: parsed in the answer's format, then checked
 * against its schema. A `text` answer is always read as the text itself.
 *
 * @example
 * readAnswer({ format: "toon" }, "notes[0]:"); // { ok: true, value: { notes: [] } }
 * readAnswer({ format: "json" }, "{oops"); // { ok: false, error: "the answer is not JSON: …", issues: [] }
 */
export function readAnswer(answer: AnswerSpec, text: string, options: ReadOptions = {}): AnswerReading {
  const parsed = parse(answer, text);
  if (!parsed.ok) return { ...parsed, issues: [] };
  return checked(answer.format === "text" ? undefined : answer.schema, parsed.value, options);
}

/**
 * Reads a tool result's answer where its tool puts it: the structured content for a tool with an
 * output schema (its text is then ignored), the text for any other.
 *
 * @example
 * readResult(entry, { text: result.content[0].text, structured: result.structuredContent });
 */
export function readResult(entry: { answer: AnswerSpec }, result: ResultParts, options: ReadOptions = {}): AnswerReading {
  const { answer } = entry;
  if (answer.structured === true) {
    if (result.structured === undefined) {
      return { ok: false, error: "the result has no structured content, which this tool answers with", issues: [] };
    }
    return checked(answer.schema, result.structured, options);
  }
  if (result.text === undefined) return { ok: false, error: "the result has no text", issues: [] };
  return readAnswer(answer, result.text, options);
}

/** The value parsed from an answer's text, not yet checked against a schema. */
function parse(answer: AnswerSpec, text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  switch (answer.format) {
    case "text":
      return { ok: true, value: text };
    case "json":
      return parseJson(text);
    case "toon": {
      const decoded = decodeToon(text);
      return decoded.ok ? decoded : { ok: false, error: `the answer is not TOON: ${decoded.error}` };
    }
    case "prefixed_json": {
      const prefix = answer.prefix ?? "";
      const suffix = answer.suffix ?? "";
      if (!text.startsWith(prefix)) {
        return { ok: false, error: `the answer does not start with its prefix ${JSON.stringify(prefix)}: ${excerpt(text)}` };
      }
      if (text.length < prefix.length + suffix.length || !text.endsWith(suffix)) {
        return { ok: false, error: `the answer does not end with its suffix ${JSON.stringify(suffix)}: ${excerpt(text, true)}` };
      }
      return parseJson(text.slice(prefix.length, text.length - suffix.length));
    }
    default:
      return { ok: false, error: `unknown answer format ${JSON.stringify((answer as { format: unknown }).format)}` };
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `the answer is not JSON: ${(error as Error).message}` };
  }
}

function checked(schema: JsonSchema | undefined, value: unknown, options: ReadOptions): AnswerReading {
  if (schema === undefined) return { ok: true, value };
  const compiled = compilerOf(options).compile(schema);
  if (compiled.validate(value)) return { ok: true, value };
  return { ok: false, error: `the answer does not match its schema: ${compiled.errorsText()}`, issues: compiled.issues() };
}

/** A short, quoted piece of the text for an error: its start, or with `end` its end. */
function excerpt(text: string, end = false): string {
  const limit = 60;
  if (text.length <= limit) return JSON.stringify(text);
  return end ? `…${JSON.stringify(text.slice(-limit))}` : `${JSON.stringify(text.slice(0, limit))}…`;
}
