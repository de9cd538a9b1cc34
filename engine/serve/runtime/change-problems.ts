import { jsonValueProblem, MAX_STATE_DEPTH, type CompiledSchema } from "../../author/contract/index.js";
import { isCommitted, layerChanges } from "../../core/record/index.js";
import { changedKeysOf } from "./changed-keys.js";
import type { OverLimit } from "./state-store.js";

/**
 * Why committing a call's changes would break its fake: an entity deleted, holding a value JSON
 * cannot carry (a non-finite number, nesting deeper than MAX_STATE_DEPTH), or left outside its
 * schema. Shared by tool calls and API requests.
 *
 * `committed`: the fake's state before the change, so a TypeScript write's changed keys are known.
 *
 * @example stateProblem(fake.entities, "notes/create-note", { notes: "oops" }, store.states.notes)
 */
export function stateProblem(
  entities: Map<string, CompiledSchema>,
  what: string,
  changes: Record<string, unknown>,
  committed: Record<string, unknown> = {},
): string | undefined {
  for (const [entity, value] of Object.entries(changes)) {
    if (value === undefined) return deleted(what, entity);
    // Checked before the schema: ajv takes Infinity for a number, and the state file would say null.
    // Of an object whose changed keys a draft named, only those keys: the rest are committed
    // (frozen) values the check passes over anyway, and an entity of 100,000 keys is not walked.
    const keys = changedKeysOf(committed[entity], value);
    const checked = keys ? partOf(value as Record<string, unknown>, keys) : uncommittedPart(value);
    const unfit = jsonValueProblem(checked, { maxDepth: MAX_STATE_DEPTH, skipFrozen: true });
    if (unfit)
      return `[eval-simulate] ${what} would leave ${entity} holding what JSON cannot carry: ${entity}${unfit.path} ${unfit.message}; nothing was changed`;
    const schema = entities.get(entity);
    if (schema && !fitsSchema(schema, value, keys)) {
      const hint =
        Array.isArray(value) || !/must be array/.test(schema.errorsText())
          ? ""
          : " (a JSONata path that matches one item yields the item itself: wrap it in [ ])";
      return `[eval-simulate] ${what} would leave ${entity} outside its schema: ${schema.errorsText()}${hint}; nothing was changed`;
    }
  }
  return undefined;
}

/** The keys of `value` among `keys`, as an object of their own (a `__proto__` key kept as data). */
const partOf = (value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> => Object.fromEntries(keys.map((key) => [key, value[key]]));

/**
 * What of a value of unknown changed keys may be new. A committed-looking one (a large entity's
 * value moved here from another: a layer, or the frozen object one was copied out into) may
 * still hold records the call made, not yet frozen: a layer's keys changed since its base, or a
 * frozen object's records that are not committed, are checked. Any other value is checked whole
 * (its committed parts passed over).
 */
function uncommittedPart(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value) || !isCommitted(value)) return value;
  const changes = layerChanges(value);
  if (changes) return partOf(value as Record<string, unknown>, [...changes.keys()]);
  const entries = value as Record<string, unknown>;
  const fresh = Object.keys(entries).filter((key) => {
    const inner = entries[key];
    return inner === null || typeof inner !== "object" || !isCommitted(inner);
  });
  return partOf(entries, fresh);
}

/**
 * True when `value` is valid by the entity's schema. An object of records each checked alone
 * (`recordMap`) whose changed keys a draft named needs only those records checked: the others
 * are the committed ones, valid when they were committed. A failure is told by the whole check,
 * so its words are what they always were.
 */
function fitsSchema(schema: CompiledSchema, value: unknown, keys: readonly string[] | undefined): boolean {
  if (keys && schema.recordMap) {
    const entries = value as Record<string, unknown>;
    const held = keys.filter((key) => Object.hasOwn(entries, key) && entries[key] !== undefined);
    if (schema.validate(partOf(entries, held))) return true;
  }
  return schema.validate(value);
}

const deleted = (what: string, entity: string) => `[eval-simulate] ${what} would delete ${entity}; set it to an empty value instead; nothing was changed`;

/**
 * A handler's error as the caller reads it. A TypeError from committed (frozen) state or a draft
 * means the handler changed what its entity map does not let it change, which says more than
 * the engine's own wording would.
 *
 * @example describeHandlerError(error, "notes/sneaky", ["counter"], "tool")
 */
export function describeHandlerError(error: unknown, what: string, writes: readonly string[], declaredBy: "tool" | "operation"): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof TypeError)) return message;
  const entity = /Cannot delete property '([^']+)'/.exec(message)?.[1];
  if (entity && writes.includes(entity)) return deleted(what, entity);
  if (/read[- ]only|not extensible|Cannot (assign|add|delete)|frozen|trap returned falsish/i.test(message)) {
    return `[eval-simulate] the handler of ${what} changed state its ${declaredBy} does not declare in writes (${writes.join(", ") || "none"}): ${message}`;
  }
  return message;
}

/**
 * A commit the world's byte limit refuses, as the caller reads it.
 *
 * @example worldSizeProblem("notes/create-note", { bytes: 70_000_000, limit: 67_108_864 })
 */
export function worldSizeProblem(what: string, over: OverLimit): string {
  return `[eval-simulate] ${what} would grow this world to ${over.bytes} bytes, past its limit of ${over.limit} (maxWorldBytes, EVAL_SIMULATE_MAX_WORLD_BYTES); nothing was changed`;
}
