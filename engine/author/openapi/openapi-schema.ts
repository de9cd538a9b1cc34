/**
 * OpenAPI schemas made into standalone JSON Schemas ajv can compile: every local `$ref` the
 * schema reaches (recursively, each once, so recursive schemas do not loop) is copied into the
 * schema's own `$defs`, and OpenAPI 3.0's dialect is converted to JSON Schema 2020-12.
 */
import { isSchemaObject, walkSchema, type JsonSchema } from "../contract/index.js";
import { atPointer, type DocumentNode } from "./openapi-document.js";
import { numericExclusiveBounds } from "../contract/index.js";

const DIALECT_2020 = "https://json-schema.org/draft/2020-12/schema";

/**
 * A copy of the schema at `at` that stands alone: `$ref`s into the document become refs into
 * its `$defs`, and a 3.0 schema is converted (`nullable` → a `null` type, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` → numbers, `$ref` siblings dropped as 3.0 says).
 * Throws an `[eval-simulate]` error naming a ref that is not local or leads nowhere.
 *
 * @example
 * standaloneSchema(document, { $ref: "#/components/schemas/Issue" }, "3.0", "#/paths/~1issues/get/responses/200/content/application~1json/schema");
 * // { $schema: ".../2020-12/schema", $ref: "#/$defs/components.schemas.Issue", $defs: { "components.schemas.Issue": { … } } }
 */
export function standaloneSchema(document: DocumentNode, schema: unknown, version: "3.0" | "3.1", at: string): JsonSchema {
  if (typeof schema === "boolean") return schema;
  if (!isSchemaObject(schema)) throw new Error(`[eval-simulate] ${at} is not a schema`);
  const keys = new Map<string, string>();
  const pending: string[] = [];
  const keyOf = (ref: string, where: string): string => {
    let key = keys.get(ref);
    if (key !== undefined) return key;
    if (!ref.startsWith("#/")) {
      throw new Error(`[eval-simulate] ${where}: the $ref ${ref} is not inside the document; a trimmed document must hold every schema it uses`);
    }
    if (atPointer(document, ref) === undefined) throw new Error(`[eval-simulate] ${where}: the $ref ${ref} points at nothing in the document`);
    const base = ref
      .slice(2)
      .split("/")
      .map(decodeToken)
      .join(".")
      .replace(/[^A-Za-z0-9._-]/g, "_");
    key = base;
    for (let n = 2; [...keys.values()].includes(key); n++) key = `${base}_${n}`;
    keys.set(ref, key);
    pending.push(ref);
    return key;
  };

  const root = convert(schema, version, at, keyOf);
  const defs: Record<string, JsonSchema> = {};
  for (let i = 0; i < pending.length; i++) {
    const ref = pending[i];
    const target = atPointer(document, ref);
    defs[keys.get(ref)!] = typeof target === "boolean" ? target : convert(target, version, ref, keyOf);
  }
  // A boolean schema refers to nothing, so it needs no $defs.
  if (typeof root === "boolean") return root;
  const own = isSchemaObject(root.$defs) ? root.$defs : {};
  return { ...root, $schema: DIALECT_2020, ...(pending.length > 0 || root.$defs ? { $defs: { ...own, ...defs } } : {}) };
}

function decodeToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // Kept as written: the key only has to be unique and readable.
  }
  return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** A converted deep copy of one schema; refs are registered through `keyOf`. */
function convert(schema: unknown, version: "3.0" | "3.1", at: string, keyOf: (ref: string, at: string) => string): JsonSchema {
  if (typeof schema === "boolean") return schema;
  if (!isSchemaObject(schema)) throw new Error(`[eval-simulate] ${at} is not a schema`);
  const copy = structuredClone(schema);
  // A 3.1 component may carry its own dialect; everything here is compiled as 2020-12 together.
  delete copy.$schema;
  walkSchema(copy, (node, where) => {
    if (typeof node.$ref === "string") {
      const rewritten = `#/$defs/${keyOf(node.$ref, at + where)}`;
      if (version === "3.0") {
        // OpenAPI 3.0: "properties adjacent to $ref are ignored".
        for (const key of Object.keys(node)) delete node[key];
      }
      node.$ref = rewritten;
      return;
    }
    if (version === "3.0") from30(node);
  });
  return copy;
}

/** Rewrites one 3.0 schema node (not its subschemas) into 2020-12, in place. */
function from30(node: Record<string, unknown>): void {
  numericExclusiveBounds(node);
  const nullable = node.nullable === true;
  delete node.nullable;
  if (!nullable) return;
  const combined = ["allOf", "anyOf", "oneOf", "not"].some((keyword) => keyword in node);
  if (typeof node.type === "string" && !combined) {
    node.type = [node.type, "null"];
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
    return;
  }
  // No single type to widen (a nullable allOf, or no type at all): null or the rest.
  const rest = { ...node };
  for (const key of Object.keys(node)) delete node[key];
  node.anyOf = [{ type: "null" }, rest];
}
