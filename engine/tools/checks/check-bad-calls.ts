/**
 * Check (d): a call outside a tool's captured input schema is refused (a tool error, or the
 * JSON-RPC error) and changes no state. The calls are made up from each allowed tool's captured
 * input schema: a plain valid call (the required arguments, each with a value its schema accepts
 * where one can be guessed), then a required argument left out, an undeclared argument where the
 * schema is closed, and each declared argument of the wrong type. They are sent with the
 * official client.
 */
import { changedEntities, excerpt, failOn, jsonOf } from "./check-failure.js";
import { rawCall, type RecipeContext, withStarted } from "./recipe-context.js";

type Schema = Record<string, unknown>;
type Args = Record<string, unknown>;

/** A call the input schema refuses, and why it does. */
export interface BadCall {
  why: string;
  args: Args;
}

const isObject = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** Follows local `$ref`s (`#/$defs/…`, `#/definitions/…`) from the root. */
function resolve(schema: unknown, root: unknown, hops = 0): Schema {
  if (!isObject(schema)) return {};
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#") || hops > 10) return schema;
  const target = ref
    .slice(1)
    .split("/")
    .filter(Boolean)
    .map((token) => decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), root);
  return resolve(target, root, hops + 1);
}

const FORMATS: Record<string, string> = {
  email: "someone@example.com",
  uuid: "00000000-0000-4000-8000-000000000000",
  "date-time": "2026-01-01T09:00:00.000Z",
  date: "2026-01-01",
  time: "09:00:00Z",
  uri: "https://example.com/",
  url: "https://example.com/",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
};

const STRING_CANDIDATES = ["x", "abcd", "ABCD", "KSEA", "US", "a1", "0000", "x-1", "hello world"];

function sampleString(schema: Schema): string {
  const format = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
  if (format !== undefined) return format;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const pad = (text: string) => (text.length >= min ? text : text + "x".repeat(min - text.length));
  if (typeof schema.pattern === "string") {
    try {
      const pattern = new RegExp(schema.pattern, "u");
      const found = STRING_CANDIDATES.map(pad).find((candidate) => pattern.test(candidate));
      if (found !== undefined) return found;
    } catch {
      // A pattern JavaScript cannot compile: any string will do as a guess.
    }
  }
  return pad("x");
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const min = typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : undefined;
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const value = min ?? (max !== undefined && max < 1 ? max : 1);
  return integer ? Math.ceil(value) : value;
}

/**
 * A value the schema probably accepts: its const, first enum value, default or example, else one
 * made from its type and bounds.
 *
 * @example sampleValue({ type: "string", format: "email" }, root); // "someone@example.com"
 */
export function sampleValue(schemaIn: unknown, root: unknown, depth = 0): unknown {
  const schema = resolve(schemaIn, root);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ("default" in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (depth > 6) return null;
  const options = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(options) && options.length > 0) return sampleValue(options[0], root, depth + 1);
  const types = typesOf(schema) ?? (isObject(schema.properties) ? ["object"] : ["string"]);
  const type = types.find((t) => t !== "null") ?? types[0];
  switch (type) {
    case "string":
      return sampleString(schema);
    case "integer":
    case "number":
      return sampleNumber(schema, type === "integer");
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      return Array.from({ length: count }, () => sampleValue(schema.items, root, depth + 1));
    }
    default:
      return validCallOf(schema, root, depth + 1);
  }
}

function validCallOf(schema: Schema, root: unknown, depth: number): Args {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, sampleValue(properties[name] ?? {}, root, depth)]));
}

/**
 * Arguments the input schema probably accepts: each required argument with a sample value.
 *
 * @example validCall({ type: "object", properties: { to: { type: "string", format: "email" } }, required: ["to"] });
 * // { to: "someone@example.com" }
 */
export function validCall(inputSchema: unknown): Args {
  return validCallOf(resolve(inputSchema ?? {}, inputSchema), inputSchema, 0);
}

/** The JSON types a schema allows, when it says: from `type`, else from its const or enum values. */
function typesOf(schema: Schema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  const values = "const" in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (values === undefined || values.length === 0) return undefined;
  const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);
  return [...new Set(values.map(jsonType))];
}

/** A value of a JSON type the schema does not allow: a string, a fraction, a boolean, an array, an object, null. */
function wrongValue(types: string[]): { value: unknown; type: string } | undefined {
  const candidates: Array<{ value: unknown; type: string; allowedBy: string[] }> = [
    { value: "eval-simulate: not the declared type", type: "a string", allowedBy: ["string"] },
    { value: 1.5, type: "a number", allowedBy: ["number"] },
    { value: true, type: "a boolean", allowedBy: ["boolean"] },
    { value: ["eval-simulate"], type: "an array", allowedBy: ["array"] },
    { value: { "eval-simulate": true }, type: "an object", allowedBy: ["object"] },
    { value: null, type: "null", allowedBy: ["null"] },
  ];
  return candidates.find((c) => !c.allowedBy.some((t) => types.includes(t)));
}

/** A name the schema neither declares nor matches with a patternProperties pattern. */
function undeclaredName(schema: Schema): string {
  const declared = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const patterns = isObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
  const matches = (name: string) =>
    patterns.some((p) => {
      try {
        return new RegExp(p, "u").test(name);
      } catch {
        return false;
      }
    });
  for (const name of ["eval_simulate_undeclared", "eval-simulate-undeclared", "$undeclared", "0"]) {
    if (!declared.includes(name) && !matches(name)) return name;
  }
  return "eval_simulate_undeclared";
}

/**
 * Calls the input schema refuses, each starting from a valid call: every required argument
 * left out in turn, an undeclared argument (only where `additionalProperties` is false), and
 * every declared argument whose type the schema states given a value of another type.
 *
 * @example badCalls(tool.inputSchema).map((c) => c.why);
 * // ['the required argument "title" left out', '"limit" given a string where the schema says integer']
 */
export function badCalls(inputSchema: unknown): BadCall[] {
  const root = resolve(inputSchema ?? {}, inputSchema);
  const base = validCall(inputSchema);
  const calls: BadCall[] = [];
  const required = Array.isArray(root.required) ? (root.required as string[]) : [];
  for (const name of required) {
    const { [name]: _left, ...args } = base;
    calls.push({ why: `the required argument "${name}" left out`, args });
  }
  if (root.additionalProperties === false) {
    const name = undeclaredName(root);
    calls.push({ why: `an undeclared argument "${name}"`, args: { ...base, [name]: "undeclared" } });
  }
  const properties = isObject(root.properties) ? root.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    const types = typesOf(resolve(property, inputSchema));
    const wrong = types === undefined ? undefined : wrongValue(types);
    if (types === undefined || wrong === undefined) continue;
    calls.push({ why: `"${name}" given ${wrong.type} where the schema says ${types.join(" or ")}`, args: { ...base, [name]: wrong.value } });
  }
  return calls;
}

/**
 * Fails, naming each call the fake answered or that changed its state.
 *
 * @example await checkBadCalls(context, "crm");
 */
export async function checkBadCalls(context: RecipeContext, id: string): Promise<void> {
  const server = context.servers[id];
  const allowed = context.allowed(id);
  const served = new Set(server.tools.map((tool) => tool.name));
  const tools = server.captured.filter((tool) => allowed.includes(tool.name) && served.has(tool.name));
  const problems: string[] = [];
  await withStarted(context, id, 1, async ([{ services, client }]) => {
    for (const tool of tools) {
      for (const bad of badCalls(tool.inputSchema ?? { type: "object" })) {
        const beforeText = jsonOf(services.states[id]);
        const result = await rawCall(client, tool.name, bad.args);
        await services.idle();
        const after = services.states[id];
        const what = `${tool.name} with ${bad.why} (${excerpt(bad.args)})`;
        const changed = jsonOf(after) === beforeText ? [] : changedEntities(JSON.parse(beforeText), after);
        const answered = result.isError ? undefined : `was answered: ${excerpt(result.text)}`;
        const effect = changed.length > 0 ? `changed ${changed.join(", ")}` : undefined;
        if (answered || effect) problems.push(`${what} ${[answered, effect].filter(Boolean).join(" and ")}`);
      }
    }
  });
  failOn(
    problems,
    `${id} does not refuse every call outside its tools' input schemas`,
    "a fake refuses such a call before any handler runs, so serve each tool's captured inputSchema unchanged and validate every call against it; never loosen a captured schema in the fake",
  );
}
