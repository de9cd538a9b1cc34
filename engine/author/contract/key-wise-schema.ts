/**
 * Entity schemas that constrain each key of an object alone: `type: object` with only
 * `additionalProperties`, `patternProperties` and `propertyNames` (and annotations or
 * definitions beside them). An object fits such a schema exactly when every one of its keys
 * does, so after a write that changed some keys of an object that fitted, checking those keys
 * is checking the whole (serve's `entity-fit.ts`): a write to one record of 100,000 checks one.
 */
import type { CompiledSchema } from "./schema-validator.js";

/** Keywords that constrain one key at a time, or nothing (annotations, definitions). */
const KEY_WISE = new Set([
  "type",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "title",
  "description",
  "$comment",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$schema",
  "$id",
  "definitions",
  "$defs",
]);

const keyWise = new WeakSet<CompiledSchema>();

/** True when `schema` constrains each key of an object alone (see the top of this file). */
export function isKeyWiseSchema(schema: unknown): boolean {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return false;
  const { type } = schema as { type?: unknown };
  if (type !== "object" && !(Array.isArray(type) && type.length === 1 && type[0] === "object")) return false;
  return Object.keys(schema).every((keyword) => KEY_WISE.has(keyword));
}

/**
 * `compiled`, noted as compiled from `schema`, whether that constrains each key alone.
 *
 * @example entities.set(entity.name, keyWiseSchema(compiler.compile(entity.schema), entity.schema))
 */
export function keyWiseSchema(compiled: CompiledSchema, schema: unknown): CompiledSchema {
  if (isKeyWiseSchema(schema)) keyWise.add(compiled);
  return compiled;
}

/** True when `compiled` was noted by `keyWiseSchema` as constraining each key alone. */
export const checksKeyWise = (compiled: CompiledSchema): boolean => keyWise.has(compiled);
