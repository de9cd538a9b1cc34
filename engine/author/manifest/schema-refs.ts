import type { JsonSchema } from "../model/index.js";

const PREFIX = "#/schemas/";

/** The names of the manifest schemas a schema refers to with `#/schemas/<name>`, deeply. */
export function referencedSchemas(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) referencedSchemas(item, found);
  else if (schema && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith(PREFIX)) found.add(value.slice(PREFIX.length));
      else referencedSchemas(value, found);
    }
  }
  return found;
}

function rewrite(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewrite);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === "$ref" && typeof value === "string" && value.startsWith(PREFIX) ? `#/definitions/${value.slice(PREFIX.length)}` : rewrite(value);
  }
  return out;
}

/**
 * A schema that stands alone: its `#/schemas/<name>` references point at a `definitions` block
 * holding the named schemas it reaches (recursively), so ajv, a client or answers.json can read
 * it without the manifest. Unknown names are left for the caller to report.
 *
 * @example standalone({ $ref: "#/schemas/Note" }, { Note: { type: "object" } })
 * // { $ref: "#/definitions/Note", definitions: { Note: { type: "object" } } }
 */
export function standalone(schema: JsonSchema, named: Record<string, JsonSchema>): JsonSchema {
  if (typeof schema === "boolean") return schema;
  const reached = new Set<string>();
  const pending = [...referencedSchemas(schema)];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (reached.has(name) || !(name in named)) continue;
    reached.add(name);
    pending.push(...referencedSchemas(named[name]));
  }
  if (reached.size === 0) return schema;
  const definitions: Record<string, unknown> = { ...((schema.definitions as object) ?? {}) };
  for (const name of [...reached].sort()) definitions[name] = rewrite(named[name]);
  return { ...(rewrite(schema) as Record<string, unknown>), definitions };
}
