/**
 * A JSON Schema from sampled values, by observed.json's rules: types, each object's properties
 * (required: the keys every sample held), array items, and keys that are not plain words
 * (record ids used as keys, `Deal Stage`) masked: their values go under `x-masked-values`.
 */

type Schema = Record<string, unknown>;

const PLAIN_KEY = /^[a-z][A-Za-z0-9_]*$/;

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * The schema every sample fits.
 *
 * @example inferSchema([{ id: "a", n: 1 }, { id: "b" }]); // { type: "object", required: ["id"], properties: { id: { type: "string" }, n: { type: "integer" } } }
 */
export function inferSchema(samples: unknown[]): Schema {
  if (samples.length === 0) return {};
  const types = new Set(samples.map(typeOf));
  // An integer sample beside a fractional one is a number.
  if (types.has("integer") && types.has("number")) types.delete("integer");
  if (types.size > 1) {
    const parts = [...types].map((type) => inferSchema(samples.filter((s) => typeOf(s) === type || (type === "number" && typeOf(s) === "integer"))));
    return { anyOf: parts };
  }
  const [type] = types;
  if (type === "object") return objectSchema(samples as Array<Record<string, unknown>>);
  if (type === "array") {
    const items = (samples as unknown[][]).flat();
    return items.length === 0 ? { type: "array" } : { type: "array", items: inferSchema(items) };
  }
  return { type };
}

function objectSchema(samples: Array<Record<string, unknown>>): Schema {
  const keys = new Set(samples.flatMap((sample) => Object.keys(sample)));
  const properties: Record<string, Schema> = {};
  const masked: unknown[] = [];
  for (const key of keys) {
    const values = samples.filter((sample) => Object.hasOwn(sample, key)).map((sample) => sample[key]);
    if (PLAIN_KEY.test(key)) properties[key] = inferSchema(values);
    else masked.push(...values);
  }
  const required = [...keys].filter((key) => PLAIN_KEY.test(key) && samples.every((sample) => Object.hasOwn(sample, key)));
  return {
    type: "object",
    ...(required.length > 0 && { required }),
    properties,
    ...(masked.length > 0 && { "x-masked-values": inferSchema(masked) }),
  };
}
