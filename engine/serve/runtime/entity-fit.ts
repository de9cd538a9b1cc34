/**
 * Whether an entity's value after a write fits its schema, checked by the keys the write changed
 * when the schema constrains each key alone (author's `key-wise-schema.ts`) and the value before
 * the write fitted: a write to one record of 100,000 checks one record, not 100,000. Committed
 * values never change, so whether one fits is kept per schema: a scenario's starting value,
 * shared by every session, is checked whole once.
 */
import { checksKeyWise, type CompiledSchema } from "../../author/contract/index.js";
import { isCommitted } from "../../core/record/index.js";

/** Per schema, committed values found to fit it, and found not to. */
const verdicts = new WeakMap<CompiledSchema, { fit: WeakSet<object>; unfit: WeakSet<object> }>();

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * True when `value` fits `schema`; `keys`, when known, the only keys in which it differs from
 * `before` (the committed value it replaces). On false, `schema.errorsText()` says why.
 *
 * @example if (!fitsSchema(schema, next.orders, committed.orders, ["o-7"])) return schema.errorsText();
 */
export function fitsSchema(schema: CompiledSchema, value: unknown, before: unknown, keys: readonly string[] | undefined): boolean {
  let known = verdicts.get(schema);
  if (!known) verdicts.set(schema, (known = { fit: new WeakSet(), unfit: new WeakSet() }));
  if (isObject(value) && known.fit.has(value)) return true;
  const byKeys = keys !== undefined && checksKeyWise(schema) && isObject(value) && isObject(before) && fitted(schema, before, known);
  if (!schema.validate(byKeys ? changedPart(value, keys) : value)) return false;
  if (isObject(value) && isCommitted(value)) known.fit.add(value);
  return true;
}

/** Whether committed `before` fits `schema`, asked once per value. */
function fitted(schema: CompiledSchema, before: Record<string, unknown>, known: { fit: WeakSet<object>; unfit: WeakSet<object> }): boolean {
  if (known.fit.has(before)) return true;
  if (known.unfit.has(before) || !isCommitted(before)) return false;
  const fits = schema.validate(before);
  (fits ? known.fit : known.unfit).add(before);
  return fits;
}

/** The keys of `value` among `keys` that it holds, as an object of their own (a `__proto__` key kept as data). */
function changedPart(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const part: Record<string, unknown> = {};
  for (const key of keys)
    if (Object.hasOwn(value, key)) Object.defineProperty(part, key, { value: value[key], enumerable: true, writable: true, configurable: true });
  return part;
}
