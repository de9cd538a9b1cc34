/**
 * Turning parameter text into the values its schema describes: `"20"` into 20 for an integer,
 * `"true"` into true for a boolean, `"a,b"` or repeated values into arrays. Text that does not
 * read as the type is left as it is, so the schema check names it ("must be integer").
 */
import { isSchemaObject, type JsonSchema } from "../contract/index.js";

type Node = Record<string, unknown>;

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Follows a `#/$defs/<key>` ref of a standalone schema (see standaloneSchema) to its node.
 *
 * @example resolveNode({ $ref: "#/$defs/A" }, { $defs: { A: { type: "integer" } } }); // { type: "integer" }
 */
export function resolveNode(node: unknown, root: JsonSchema, depth = 0): Node | undefined {
  if (!isSchemaObject(node)) return undefined;
  if (typeof node.$ref !== "string" || depth > 32 || !isSchemaObject(root) || !isSchemaObject(root.$defs)) return node;
  const key = node.$ref.replace(/^#\/\$defs\//, "");
  return resolveNode(root.$defs[key], root, depth + 1);
}

/**
 * The JSON types a schema admits, looking through refs and allOf/anyOf/oneOf; empty when any.
 *
 * @example typesOf({ anyOf: [{ type: "integer" }, { type: "null" }] }, {}); // Set { "integer", "null", "number" }
 */
export function typesOf(schema: unknown, root: JsonSchema, depth = 0): Set<string> {
  const node = resolveNode(schema, root);
  const types = new Set<string>();
  if (!node || depth > 16) return types;
  if (typeof node.type === "string") types.add(node.type);
  if (Array.isArray(node.type)) for (const type of node.type) types.add(String(type));
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    if (!Array.isArray(node[keyword])) continue;
    for (const member of node[keyword] as unknown[]) for (const type of typesOf(member, root, depth + 1)) types.add(type);
  }
  if (types.size === 0 && Array.isArray(node.enum)) {
    for (const value of node.enum) types.add(value === null ? "null" : Number.isInteger(value) ? "integer" : typeof value);
  }
  if (types.has("integer")) types.add("number");
  return types;
}

/**
 * A subschema found by `find`, looking through refs and allOf/anyOf/oneOf.
 *
 * @example subschema(schema, schema, (node) => node.items);
 */
export function subschema(schema: unknown, root: JsonSchema, find: (node: Node) => unknown, depth = 0): unknown {
  const node = resolveNode(schema, root);
  if (!node || depth > 16) return undefined;
  const own = find(node);
  if (own !== undefined) return own;
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    if (!Array.isArray(node[keyword])) continue;
    for (const member of node[keyword] as unknown[]) {
      const found = subschema(member, root, find, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * One value's text as the schema's type. A string type keeps the text; JSON text for an object
 * or array type is parsed.
 *
 * @example coerceScalar("20", { type: "integer" }, { type: "integer" }); // 20
 */
export function coerceScalar(text: string, schema: unknown, root: JsonSchema): unknown {
  const types = typesOf(schema, root);
  if (types.size === 0 || types.has("string")) return text;
  if (types.has("number") && NUMBER.test(text)) return Number(text);
  if (types.has("boolean") && (text === "true" || text === "false")) return text === "true";
  if (types.has("null") && (text === "" || text === "null")) return null;
  if ((types.has("object") || types.has("array")) && /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The separator an array parameter's style uses when not exploded. */
function separatorOf(style: string): string | RegExp {
  if (style === "spaceDelimited") return /(?:%20| )/;
  if (style === "pipeDelimited") return "|";
  return ",";
}

/**
 * A parameter's values (one, or several for a repeated query key) as its schema's type: an
 * array schema collects every value (splitting each on the style's separator unless exploded),
 * anything else reads the first value.
 *
 * @example coerceValues(["a,b"], { style: "form", explode: false }, { type: "array", items: { type: "string" } }); // ["a", "b"]
 */
export function coerceValues(values: string[], how: { style: string; explode: boolean }, schema: JsonSchema): unknown {
  if (!typesOf(schema, schema).has("array") || typesOf(schema, schema).has("string")) return coerceScalar(values[0], schema, schema);
  const items = subschema(schema, schema, (node) => (isSchemaObject(node.items) ? node.items : undefined));
  const split = how.explode && how.style === "form" ? values : values.flatMap((value) => (value === "" ? [] : value.split(separatorOf(how.style))));
  return split.map((value) => coerceScalar(how.style === "simple" ? value.trim() : value, items, schema));
}
