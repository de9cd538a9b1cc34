/**
 * Walking a JSON Schema's subschemas by keyword, so that callers look only at schema positions:
 * a `default` inside `enum`, `const` or `examples` is data, not a keyword.
 */

/** A JSON Schema: an object of keywords, or `true`/`false`. */
export type JsonSchema = boolean | { [keyword: string]: unknown };

/** Keywords whose value is one subschema (`items` also takes an array, handled below). */
const SINGLE = [
  "additionalItems",
  "additionalProperties",
  "contains",
  "contentSchema",
  "else",
  "if",
  "items",
  "not",
  "propertyNames",
  "then",
  "unevaluatedItems",
  "unevaluatedProperties",
];

/** Keywords whose value is an array of subschemas. */
const LISTS = ["allOf", "anyOf", "items", "oneOf", "prefixItems"];

/** Keywords whose value maps names to subschemas. */
const MAPS = ["$defs", "definitions", "dependencies", "dependentSchemas", "patternProperties", "properties"];

/** Escapes one JSON Pointer token (RFC 6901). */
export function pointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Calls `visit` on the schema and each of its object subschemas, depth first, with its JSON
 * Pointer ("" for the root).
 *
 * @example
 * walkSchema({ properties: { a: { type: "string" } } }, (node, pointer) => console.log(pointer));
 * // "", "/properties/a"
 */
export function walkSchema(schema: JsonSchema, visit: (node: { [keyword: string]: unknown }, pointer: string) => void, pointer = ""): void {
  if (!isSchemaObject(schema)) return;
  visit(schema, pointer);
  for (const keyword of SINGLE) {
    const sub = schema[keyword];
    if (isSchemaObject(sub)) walkSchema(sub, visit, `${pointer}/${pointerToken(keyword)}`);
  }
  for (const keyword of LISTS) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((sub, index) => walkSchema(sub as JsonSchema, visit, `${pointer}/${keyword}/${index}`));
  }
  for (const keyword of MAPS) {
    const map = schema[keyword];
    if (!isSchemaObject(map)) continue;
    for (const [name, sub] of Object.entries(map)) {
      // draft-07 `dependencies` also maps names to arrays of property names: those are no schemas.
      if (isSchemaObject(sub)) walkSchema(sub, visit, `${pointer}/${pointerToken(keyword)}/${pointerToken(name)}`);
    }
  }
}

/** True for a schema written as an object (not `true`/`false`, not an array). */
export function isSchemaObject(value: unknown): value is { [keyword: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
