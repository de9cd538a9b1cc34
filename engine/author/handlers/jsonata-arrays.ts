/**
 * JSONata gives a one-item sequence as the item itself (`$state.tasks[status = "open"]` with one
 * open task is that task, not a list of one). Where a JSONata handler's answer schema declares an
 * array, the answer gets the array the schema says: one value is wrapped, nothing is `[]`. The
 * schema is followed inline (`properties`, `items`, `type`); a `$ref` is not followed.
 */

const MAX_DEPTH = 32;

type Schema = { type?: unknown; properties?: Record<string, unknown>; items?: unknown };

const declaresArray = (schema: Schema) => schema.type === "array" || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === "array");
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The answer with every place its schema declares an array holding one.
 *
 * @example arraysAsDeclared({ tasks: { id: 1 } }, { type: "object", properties: { tasks: { type: "array" } } }) // { tasks: [{ id: 1 }] }
 */
export function arraysAsDeclared(value: unknown, schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return value;
  const s = schema as Schema;
  if (declaresArray(s)) {
    const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
    return isObject(s.items) ? list.map((item) => arraysAsDeclared(item, s.items, depth + 1)) : list;
  }
  if (isObject(value) && isObject(s.properties)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const property = Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
      // A property the handler left out stays out: only what the answer holds is reshaped.
      Object.defineProperty(out, key, {
        value: property === undefined ? item : arraysAsDeclared(item, property, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
