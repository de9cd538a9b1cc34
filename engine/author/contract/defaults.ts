/**
 * The defaults an input schema states. Only top-level properties' defaults are filled into a
 * call's arguments (as the servers do); defaults deeper down are found so a caller can warn that
 * they are not.
 */
import { isSchemaObject, walkSchema, type JsonSchema } from "./schema-walk.js";

/**
 * The defaults of an input schema's top-level properties, by property name (copies: changing
 * one never changes the schema).
 *
 * @example
 * defaultsOf({ type: "object", properties: { limit: { type: "number", default: 20 } } }); // { limit: 20 }
 */
export function defaultsOf(inputSchema: JsonSchema): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  if (!isSchemaObject(inputSchema) || !isSchemaObject(inputSchema.properties)) return defaults;
  for (const [name, property] of Object.entries(inputSchema.properties)) {
    if (isSchemaObject(property) && Object.hasOwn(property, "default")) {
      defaults[name] = structuredClone(property.default);
    }
  }
  return defaults;
}

/**
 * JSON Pointers to every `default` in an input schema that is not a top-level property's own
 * (nested objects, array items, `$defs`, combinators, the root): defaults that are not filled.
 *
 * @example
 * nestedDefaults({ properties: { page: { properties: { size: { default: 10 } } } } });
 * // ["/properties/page/properties/size/default"]
 */
export function nestedDefaults(inputSchema: JsonSchema): string[] {
  const pointers: string[] = [];
  walkSchema(inputSchema, (node, pointer) => {
    if (!Object.hasOwn(node, "default")) return;
    if (/^\/properties\/[^/]+$/.test(pointer)) return;
    pointers.push(`${pointer}/default`);
  });
  return pointers;
}

/**
 * Arguments with the missing top-level defaults filled in, each a fresh copy so no call can
 * change another's default. An argument given as `undefined` counts as missing.
 *
 * @example
 * fillDefaults({ limit: 20 }, { query: "x" }); // { limit: 20, query: "x" }
 */
export function fillDefaults(defaults: Record<string, unknown>, args: Record<string, unknown>): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...args };
  for (const [name, value] of Object.entries(defaults)) {
    if (filled[name] === undefined) filled[name] = structuredClone(value);
  }
  return filled;
}
