/**
 * An operation's request body: compiled once from `requestBody` (its JSON schema, its media
 * types), then read from each request: the media type checked, the JSON parsed, top-level
 * defaults filled and the schema checked, naming each problem.
 */
import { defaultsOf, fillDefaults, jsonValueProblem, MAX_MESSAGE_DEPTH, type CompiledSchema, type SchemaCompiler } from "../contract/index.js";
import { isSchemaObject, type JsonSchema } from "../contract/index.js";
import { resolveNode } from "./coerce-value.js";
import { child, deref, type DocumentNode } from "./openapi-document.js";
import { standaloneSchema } from "./openapi-schema.js";
import type { RequestProblem } from "./parameters.js";

/** A request body's declaration, ready to read requests. */
export interface CompiledBody {
  required: boolean;
  /** The declared media types, lowercased. */
  mediaTypes: string[];
  /** The schema of its JSON media type, when it declares one with a schema. */
  json?: { schema: JsonSchema; validator: CompiledSchema; defaults: Record<string, unknown>; at: string };
  at: string;
}

/** How a body was read: its value and problems, or a media type the operation does not take. */
export type BodyReading = { kind: "read"; body: unknown; problems: RequestProblem[] } | { kind: "unsupported"; mediaType: string; supported: string[] };

/**
 * True for media types whose text is JSON.
 *
 * @example isJsonMediaType("application/merge-patch+json"); // true
 */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === "application/json" || /^[a-z0-9.+-]+\/[a-z0-9.+-]*\+json$/.test(mediaType);
}

/**
 * The media type of a Content-Type header, lowercased, without parameters.
 *
 * @example mediaTypeOf("Application/JSON; charset=utf-8"); // "application/json"
 */
export function mediaTypeOf(contentType: string | null | undefined): string | undefined {
  const type = contentType?.split(";")[0].trim().toLowerCase();
  return type ? type : undefined;
}

/**
 * True when a declared media type covers a sent one.
 *
 * @example coversMediaType("text/*", "text/plain"); // true
 */
export function coversMediaType(declared: string, sent: string): boolean {
  if (declared === "*/*" || declared === sent) return true;
  return declared.endsWith("/*") && sent.startsWith(declared.slice(0, -1));
}

/**
 * Compiles an operation's `requestBody`, or gives undefined when it declares none.
 *
 * @example compileBody(document, "#/paths/~1issues/post", "3.0", compiler);
 */
export function compileBody(document: DocumentNode, operationAt: string, version: "3.0" | "3.1", compiler: SchemaCompiler): CompiledBody | undefined {
  const operation = deref(document, { $ref: operationAt }, operationAt).node;
  if (operation.requestBody === undefined) return undefined;
  const { node, at } = deref(document, operation.requestBody, child(operationAt, "requestBody"));
  const content = isSchemaObject(node.content) ? (node.content as Record<string, DocumentNode>) : {};
  const mediaTypes = Object.keys(content).map((type) => type.toLowerCase());
  const key =
    Object.keys(content).find((type) => type.toLowerCase() === "application/json") ??
    Object.keys(content).find((type) => isJsonMediaType(type.toLowerCase()) || coversMediaType(type.toLowerCase(), "application/json"));
  const compiled: CompiledBody = { required: node.required === true, mediaTypes, at };
  const raw = key === undefined ? undefined : content[key]?.schema;
  if (key !== undefined && raw !== undefined) {
    const schemaAt = child(at, "content", key, "schema");
    const schema = standaloneSchema(document, raw, version, schemaAt);
    let validator: CompiledSchema;
    try {
      validator = compiler.compile(schema);
    } catch (error) {
      throw new Error(`[eval-simulate] cannot compile the schema at ${schemaAt}: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`, {
        cause: error,
      });
    }
    compiled.json = { schema, validator, defaults: defaultsOf(resolveNode(schema, schema) ?? {}), at: schemaAt };
  }
  return compiled;
}

function parseJson(text: string, problems: RequestProblem[]): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.push({ in: "body", message: `is not valid JSON: ${(error as Error).message}` });
    return undefined;
  }
  // JSON.parse reads 1e309 as Infinity: no schema refuses it, and JSON would write it back as null.
  const unfit = jsonValueProblem(value, { maxDepth: MAX_MESSAGE_DEPTH });
  if (unfit) problems.push({ in: "body", ...(unfit.path ? { path: unfit.path } : {}), message: unfit.message });
  return value;
}

/**
 * Reads a request's body text. No text is `null` (a problem when the body is required). JSON is
 * parsed when sent as JSON or with no Content-Type; other media types the operation declares
 * pass as text; one it does not declare is `unsupported` (415).
 *
 * @example readBody(op.body, '{"title":"Bug"}', "application/json"); // { kind: "read", body: { title: "Bug" }, problems: [] }
 */
export function readBody(declared: CompiledBody | undefined, text: string, contentType: string | null): BodyReading {
  const problems: RequestProblem[] = [];
  if (text === "") {
    if (declared?.required) problems.push({ in: "body", message: "a request body is required" });
    return { kind: "read", body: null, problems };
  }
  const sent = mediaTypeOf(contentType);
  if (!declared) {
    // An operation that declares no body: what is sent is passed along as it came.
    if (sent !== undefined && !isJsonMediaType(sent)) return { kind: "read", body: text, problems };
    return { kind: "read", body: sent === undefined ? lenientJson(text) : parseJson(text, problems), problems };
  }
  const takesJson = declared.mediaTypes.some((type) => isJsonMediaType(type) || coversMediaType(type, "application/json"));
  if (sent === undefined) {
    // No Content-Type (curl without -H): JSON where the operation takes JSON, else the text.
    if (!takesJson) return { kind: "read", body: text, problems };
  } else if (isJsonMediaType(sent)) {
    if (!takesJson && declared.mediaTypes.length > 0) return { kind: "unsupported", mediaType: sent, supported: declared.mediaTypes };
  } else {
    if (declared.mediaTypes.length > 0 && !declared.mediaTypes.some((type) => coversMediaType(type, sent))) {
      return { kind: "unsupported", mediaType: sent, supported: declared.mediaTypes };
    }
    // A declared media type that is not JSON (text/plain, application/octet-stream): its text.
    return { kind: "read", body: text, problems };
  }
  let body = parseJson(text, problems);
  if (problems.length > 0) return { kind: "read", body: text, problems };
  const json = declared.json;
  if (json) {
    if (isSchemaObject(body) && !Array.isArray(body)) body = fillDefaults(json.defaults, body as Record<string, unknown>);
    if (!json.validator.validate(body)) {
      for (const issue of json.validator.issues()) {
        const missing = issue.keyword === "required" ? (issue.params as { missingProperty?: string }).missingProperty : undefined;
        const path = missing === undefined ? issue.path : `${issue.path}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        problems.push({ in: "body", ...(path ? { path } : {}), message: issue.message });
      }
    }
  }
  return { kind: "read", body, problems };
}

/** JSON when the text is plain JSON, else the text: for a body sent with no media type. */
function lenientJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return jsonValueProblem(value, { maxDepth: MAX_MESSAGE_DEPTH }) ? text : value;
  } catch {
    return text;
  }
}
