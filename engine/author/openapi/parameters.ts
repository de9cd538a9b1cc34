/**
 * An operation's path, query and header parameters: compiled once from the document (path-item
 * parameters overridden by the operation's own), then read from each request, coerced to their
 * schema types, their defaults filled, and checked, naming each problem.
 */
import { jsonValueProblem, MAX_MESSAGE_DEPTH, type CompiledSchema, type SchemaCompiler } from "../contract/index.js";
import { isSchemaObject, type JsonSchema } from "../contract/index.js";
import { coerceScalar, coerceValues, resolveNode, subschema } from "./coerce-value.js";
import { child, deref, type DocumentNode } from "./openapi-document.js";
import { standaloneSchema } from "./openapi-schema.js";

/** Where a request problem is. */
export interface RequestProblem {
  in: "path" | "query" | "header" | "body";
  name?: string;
  /** JSON Pointer inside the value, when the problem is deeper than the value itself. */
  path?: string;
  message: string;
}

/** One parameter, ready to read requests. */
export interface CompiledParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  style: string;
  explode: boolean;
  /** Sent as JSON text (the parameter has `content` rather than `schema`). */
  json: boolean;
  schema: JsonSchema;
  validator: CompiledSchema;
  /** Where it is declared in the document. */
  at: string;
}

/** The parameters a request carried, as the handler sees them. */
export interface ReadParameters {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  problems: RequestProblem[];
}

const LOCATIONS = new Set(["path", "query", "header", "cookie"]);
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

/**
 * Compiles the parameters of an operation: the path item's, replaced by the operation's own of
 * the same name and place.
 *
 * @example compileParameters(document, "#/paths/~1issues", "#/paths/~1issues/get", "3.0", compiler);
 */
export function compileParameters(
  document: DocumentNode,
  itemAt: string,
  operationAt: string,
  version: "3.0" | "3.1",
  compiler: SchemaCompiler,
): CompiledParameter[] {
  const byKey = new Map<string, CompiledParameter>();
  for (const [owner, at] of [
    [deref(document, { $ref: itemAt }, itemAt).node, itemAt],
    [deref(document, { $ref: operationAt }, operationAt).node, operationAt],
  ] as const) {
    const list = Array.isArray(owner.parameters) ? owner.parameters : [];
    list.forEach((entry, index) => {
      const { node, at: where } = deref(document, entry, child(at, "parameters", index));
      const place = String(node.in);
      if (!LOCATIONS.has(place) || typeof node.name !== "string") throw new Error(`[eval-simulate] ${where} is not a parameter (it needs \`name\` and \`in\`)`);
      // OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored.
      if (place === "header" && IGNORED_HEADERS.has(node.name.toLowerCase())) return;
      byKey.set(`${place}:${place === "header" ? node.name.toLowerCase() : node.name}`, compileParameter(document, node, where, version, compiler));
    });
  }
  return [...byKey.values()];
}

function compileParameter(document: DocumentNode, node: DocumentNode, at: string, version: "3.0" | "3.1", compiler: SchemaCompiler): CompiledParameter {
  const place = node.in as CompiledParameter["in"];
  const content = isSchemaObject(node.content) ? Object.entries(node.content)[0] : undefined;
  const raw = content ? (content[1] as DocumentNode).schema : node.schema;
  const schemaAt = content ? child(at, "content", content[0], "schema") : child(at, "schema");
  const schema = standaloneSchema(document, raw ?? {}, version, schemaAt);
  const style = typeof node.style === "string" ? node.style : place === "query" || place === "cookie" ? "form" : "simple";
  let validator: CompiledSchema;
  try {
    validator = compiler.compile(schema);
  } catch (error) {
    throw new Error(`[eval-simulate] cannot compile the schema at ${schemaAt}: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`, {
      cause: error,
    });
  }
  return {
    name: node.name as string,
    in: place,
    required: place === "path" || node.required === true,
    style,
    explode: typeof node.explode === "boolean" ? node.explode : style === "form",
    json: content !== undefined,
    schema,
    validator,
    at,
  };
}

/** The raw text of one parameter in a request, or undefined when it was not sent. */
function rawValues(parameter: CompiledParameter, path: Record<string, string>, query: URLSearchParams, headers: Headers): string[] | undefined {
  if (parameter.in === "path") return parameter.name in path ? [path[parameter.name]] : undefined;
  if (parameter.in === "header") {
    const value = headers.get(parameter.name);
    return value === null ? undefined : [value];
  }
  if (parameter.in === "query") return query.has(parameter.name) ? query.getAll(parameter.name) : undefined;
  return undefined;
}

/** A deepObject parameter (`filter[state]=open`) gathered into an object, or undefined. */
function deepObject(parameter: CompiledParameter, query: URLSearchParams): Record<string, unknown> | undefined {
  const value: Record<string, unknown> = {};
  const prefix = `${parameter.name}[`;
  for (const [key, text] of query) {
    if (!key.startsWith(prefix) || !key.endsWith("]")) continue;
    const property = key.slice(prefix.length, -1);
    const propertySchema = subschema(parameter.schema, parameter.schema, (node) =>
      isSchemaObject(node.properties) ? (node.properties as DocumentNode)[property] : undefined,
    );
    Object.defineProperty(value, property, {
      value: coerceScalar(text, propertySchema, parameter.schema),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return Object.keys(value).length > 0 ? value : undefined;
}

/** One parameter's value: coerced, or its default, or undefined; problems are pushed. */
function readOne(parameter: CompiledParameter, raw: string[] | undefined, query: URLSearchParams, problems: RequestProblem[]): unknown {
  const problem = (message: string, path?: string) =>
    problems.push({ in: parameter.in as RequestProblem["in"], name: parameter.name, ...(path ? { path } : {}), message });
  let value: unknown = parameter.style === "deepObject" ? deepObject(parameter, query) : undefined;
  if (value === undefined && raw !== undefined) {
    if (parameter.json) {
      try {
        value = JSON.parse(raw[0]);
      } catch {
        problem("is not valid JSON");
        return undefined;
      }
    } else value = coerceValues(raw, parameter, parameter.schema);
  }
  if (value === undefined) {
    const root = resolveNode(parameter.schema, parameter.schema);
    if (root && Object.hasOwn(root, "default")) return structuredClone(root.default);
    if (parameter.required) problem("is required");
    return undefined;
  }
  // `?page=1e400` reads as Infinity, which no schema keyword refuses.
  const unfit = jsonValueProblem(value, { maxDepth: MAX_MESSAGE_DEPTH });
  if (unfit) {
    problem(unfit.message, unfit.path || undefined);
    return value;
  }
  if (!parameter.validator.validate(value)) {
    for (const issue of parameter.validator.issues()) problem(issue.message, issue.path || undefined);
  }
  return value;
}

/**
 * Reads every parameter of a request: path (from the route), query and headers. Undeclared
 * query parameters pass through as text (an array when repeated); every request header is
 * passed, lowercased, as text, with declared headers' defaults filled.
 *
 * @example const { params, query, headers, problems } = readParameters(op.parameters, routeParams, url.searchParams, request.headers);
 */
export function readParameters(parameters: CompiledParameter[], path: Record<string, string>, query: URLSearchParams, headers: Headers): ReadParameters {
  const read: ReadParameters = { params: {}, query: {}, headers: {}, problems: [] };
  headers.forEach((value, name) => void (read.headers[name] = value));
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    define(read.query, key, values.length === 1 ? values[0] : values);
  }
  for (const parameter of parameters) {
    if (parameter.in === "cookie") continue;
    const value = readOne(parameter, rawValues(parameter, path, query, headers), query, read.problems);
    if (parameter.style === "deepObject") for (const key of Object.keys(read.query)) if (key.startsWith(`${parameter.name}[`)) delete read.query[key];
    if (value === undefined) continue;
    if (parameter.in === "path") define(read.params, parameter.name, value);
    else if (parameter.in === "query") define(read.query, parameter.name, value);
    else if (read.headers[parameter.name.toLowerCase()] === undefined)
      read.headers[parameter.name.toLowerCase()] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return read;
}

/** Sets a key as data, so a parameter named `__proto__` cannot reach the prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
