/**
 * Which JSON Schema dialect a schema is written in, read from its `$schema`, and the one
 * rewrite that lets ajv 8 (which has no draft-04 engine) validate draft-04 schemas.
 */
import { isSchemaObject, walkSchema, type JsonSchema } from "./schema-walk.js";

/** A JSON Schema dialect this engine validates. */
export type Dialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

/** The ajv engine that validates a dialect: draft-07's class covers draft-06 and draft-04. */
export type Engine = "draft-07" | "2019-09" | "2020-12";

/** `$schema` URIs without scheme and trailing `#`, so http/https and `#` variants all match. */
const DIALECTS: Record<string, Dialect> = {
  "json-schema.org/draft-04/schema": "draft-04",
  "json-schema.org/draft-06/schema": "draft-06",
  "json-schema.org/draft-07/schema": "draft-07",
  "json-schema.org/draft/2019-09/schema": "2019-09",
  "json-schema.org/draft/2020-12/schema": "2020-12",
};

/**
 * The dialect a schema declares with `$schema`, or `fallback` when it declares none.
 * Throws an `[eval-simulate]` error for a dialect ajv cannot validate.
 *
 * @example
 * dialectOf({ $schema: "https://json-schema.org/draft/2020-12/schema" }, "draft-07"); // "2020-12"
 * dialectOf({ type: "string" }, "draft-07"); // "draft-07"
 */
export function dialectOf(schema: JsonSchema, fallback: Dialect): Dialect {
  if (!isSchemaObject(schema) || typeof schema.$schema !== "string") return fallback;
  const key = schema.$schema.replace(/^https?:\/\//, "").replace(/#$/, "");
  const dialect = DIALECTS[key];
  if (dialect === undefined) {
    throw new Error(
      `[eval-simulate] unsupported JSON Schema dialect "$schema": ${JSON.stringify(schema.$schema.slice(0, 200))}; ` +
        "use draft-04, draft-06, draft-07, 2019-09 or 2020-12 (or leave $schema out for draft-07)",
    );
  }
  return dialect;
}

/**
 * The ajv engine for a dialect.
 *
 * @example
 * engineOf("draft-06"); // "draft-07"
 */
export function engineOf(dialect: Dialect): Engine {
  return dialect === "2019-09" || dialect === "2020-12" ? dialect : "draft-07";
}

/**
 * A copy of a draft-04 schema with boolean `exclusiveMaximum`/`exclusiveMinimum` turned into
 * their numeric draft-06 form, the one draft-04 idiom the draft-07 engine refuses to compile.
 * Draft-04's `id` is left as it is (ajv ignores it), so refs relative to an `id` do not resolve.
 *
 * @example
 * upgradeDraft04({ maximum: 5, exclusiveMaximum: true }); // { exclusiveMaximum: 5 }
 */
export function upgradeDraft04(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(schema);
  walkSchema(copy, (node) => numericExclusiveBounds(node as Record<string, unknown>));
  return copy;
}

/**
 * Rewrites one schema node's boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04 and
 * OpenAPI 3.0) into the numeric form later drafts use, in place.
 *
 * @example const node = { maximum: 5, exclusiveMaximum: true }; numericExclusiveBounds(node); // { exclusiveMaximum: 5 }
 */
export function numericExclusiveBounds(node: Record<string, unknown>): void {
  for (const [bound, exclusive] of [
    ["maximum", "exclusiveMaximum"],
    ["minimum", "exclusiveMinimum"],
  ] as const) {
    if (typeof node[exclusive] !== "boolean") continue;
    if (node[exclusive] === true && typeof node[bound] === "number") {
      node[exclusive] = node[bound];
      delete node[bound];
    } else {
      delete node[exclusive];
    }
  }
}
