import { compileBounded, type Expression, expressionProblem, toPlainJson } from "./bounded-jsonata.js";
import { labelId } from "./label-id.js";
import { deepCopy, isPlainObject } from "./merge.js";
import { didYouMean } from "../source/index.js";
import { parseShift, parseTimeOfDay, shiftedDate } from "./relative-date.js";
import { formatPath, type JsonPath, WorldError } from "./world-error.js";

/**
 * The special values scenario state may hold: `{ $date: "-3d" }` (with an optional `at`),
 * `{ $id: "label" }` and `{ $expr: "<jsonata>" }`. An object is special only when its keys are
 * exactly one of those shapes; any other `$`-key is refused, because a typo such as `$data`
 * would otherwise reach the agent as a literal object and fail an eval far from its cause.
 * `{ $file: "data/records.json" }` is read by the manifest loader, which puts the file's data in
 * its place before any of this runs; one that reaches here was never read, and says so.
 */

const SPECIAL_KEYS = ["$date", "$id", "$expr"] as const;

/** One problem in scenario state, found without a clock. */
export interface ValueProblem {
  /** E_WORLD_VALUE, or E_JSONATA_SYNTAX for a `$expr` that does not compile (the validator's codes). */
  code: string;
  /** The JSON path of the bad value, starting with the base path given. */
  path: JsonPath;
  message: string;
  /** For E_JSONATA_SYNTAX: the offending token's offset in the `$expr` string. */
  offset?: number;
}

type Special =
  | { kind: "date"; ms: number; at?: { hours: number; minutes: number; seconds: number } }
  | { kind: "id"; label: string }
  | { kind: "expr"; expression: Expression };

/**
 * Every problem in a value's special values, found without a clock: unknown `$`-keys, extra keys,
 * bad `$date` and `at` strings, non-string labels, `$expr` syntax errors. For the validator.
 *
 * @example checkScenarioValues(scenario.state, ["scenarios", "quiet", "state"])
 * // [{ code: "E_WORLD_VALUE", path: [..., "createdAt"], message: "… did you mean $date?" }]
 */
export function checkScenarioValues(value: unknown, basePath: JsonPath = []): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const walk = (node: unknown, path: JsonPath): void => {
    if (!holdsSpecial(node)) return;
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...path, i]));
    if (!isPlainObject(node)) return;
    const special = readSpecial(node);
    if (special === undefined) {
      for (const [key, item] of Object.entries(node)) walk(item, [...path, key]);
    } else if ("code" in special) {
      problems.push({ ...special, path });
    }
  };
  walk(value, basePath);
  return problems;
}

/**
 * A fresh deep copy of `value` with every special value replaced by what it stands for at
 * `clock`: `$date` by an ISO 8601 string, `$id` by labelId(label), `$expr` by its JSON result
 * (bindings `$now`, `$millis()` at the clock, `$labelId(label)`). Throws a WorldError carrying
 * the path of the first bad value.
 *
 * @example await resolveScenarioValues({ createdAt: { $date: "-3d", at: "09:00" } }, new Date("2026-10-01T12:00:00Z"))
 * // { createdAt: "2026-09-28T09:00:00.000Z" }
 */
export async function resolveScenarioValues(
  value: unknown,
  clock: Date,
  options: { path?: JsonPath; scenario?: string; where?: string } = {},
): Promise<unknown> {
  const context = { clock, where: options.where, scenario: options.scenario };
  return resolve(value, options.path ?? [], context);
}

interface Context {
  clock: Date;
  where?: string;
  scenario?: string;
}

async function resolve(node: unknown, path: JsonPath, context: Context): Promise<unknown> {
  if (Array.isArray(node)) {
    if (!holdsSpecial(node)) return deepCopy(node);
    const out: unknown[] = [];
    for (let i = 0; i < node.length; i++) out.push(await resolve(node[i], [...path, i], context));
    return out;
  }
  if (!isPlainObject(node) || !holdsSpecial(node)) return deepCopy(node);
  const special = readSpecial(node);
  if (special === undefined) {
    const entries: Array<[string, unknown]> = [];
    for (const [key, item] of Object.entries(node)) entries.push([key, await resolve(item, [...path, key], context)]);
    return Object.fromEntries(entries);
  }
  if ("code" in special) throw valueError(special.code, special.message, path, context);
  switch (special.kind) {
    case "id":
      return labelId(special.label);
    case "date": {
      const date = shiftedDate(context.clock, special.ms, special.at);
      if ("error" in date) throw valueError("E_WORLD_VALUE", date.error, path, context);
      return date.iso;
    }
    case "expr":
      return evaluateExpr(special.expression, path, context);
  }
}

/**
 * Whether any object in `value` has a `$`-key. Most of a large world (records read from a data
 * file) holds none: it is copied in one pass instead of walked value by value.
 */
function holdsSpecial(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      for (const item of node) if (item !== null && typeof item === "object") pending.push(item);
    } else if (isPlainObject(node)) {
      for (const key in node) {
        if (!Object.hasOwn(node, key)) continue;
        if (key.startsWith("$")) return true;
        const item = node[key];
        if (item !== null && typeof item === "object") pending.push(item);
      }
    }
  }
  return false;
}

async function evaluateExpr(expression: Expression, path: JsonPath, context: Context): Promise<unknown> {
  const { clock } = context;
  let result: unknown;
  try {
    // $millis is bound too: jsonata's own reads the machine's time, which would make two
    // worlds at the same clock differ.
    result = await expression.evaluate(undefined, { now: clock.toISOString(), millis: () => clock.getTime(), labelId });
  } catch (error) {
    const problem = expressionProblem(error);
    const at = problem.offset === undefined ? "" : ` (at character ${problem.offset})`;
    throw valueError("E_WORLD_VALUE", `$expr failed: ${problem.message}${at}`, path, context, error);
  }
  if (result === undefined) throw valueError("E_WORLD_VALUE", "$expr produced no value (a path that matched nothing?)", path, context);
  try {
    return toPlainJson(result);
  } catch (error) {
    throw valueError("E_WORLD_VALUE", `$expr's result is not JSON: ${(error as Error).message}`, path, context);
  }
}

/**
 * What an object is: undefined when it is plain data (no `$`-key), the special value it
 * spells, or the problem with it.
 */
function readSpecial(node: Record<string, unknown>): Special | { code: string; message: string; offset?: number } | undefined {
  const keys = Object.keys(node);
  const dollarKeys = keys.filter((key) => key.startsWith("$"));
  if (dollarKeys.length === 0) return undefined;
  if (Object.hasOwn(node, "$file")) {
    return {
      code: "E_WORLD_VALUE",
      message: "{ $file } is read when a fakes.yaml loads; a world built elsewhere (a world module, a TypeScript fake) reads its data files itself",
    };
  }
  const unknown = dollarKeys.find((key) => !(SPECIAL_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined) {
    const near = didYouMean(unknown, SPECIAL_KEYS);
    const hint = near ? `did you mean ${near}?` : `special values are { $date }, { $date, at }, { $id } and { $expr }`;
    return { code: "E_WORLD_VALUE", message: `unknown special value key ${JSON.stringify(unknown)}: ${hint}` };
  }
  const kind = dollarKeys[0];
  const allowed = kind === "$date" ? ["$date", "at"] : [kind];
  const extra = keys.filter((key) => !allowed.includes(key));
  if (extra.length > 0) {
    const shape = kind === "$date" ? "{ $date } or { $date, at }" : `{ ${kind} }`;
    return { code: "E_WORLD_VALUE", message: `${kind} stands alone as ${shape}; remove ${extra.map((k) => JSON.stringify(k)).join(", ")}` };
  }
  if (kind === "$date") {
    const shift = parseShift(node.$date);
    if ("error" in shift) return { code: "E_WORLD_VALUE", message: shift.error };
    if (!Object.hasOwn(node, "at")) return { kind: "date", ms: shift.ms };
    const at = parseTimeOfDay(node.at);
    if ("error" in at) return { code: "E_WORLD_VALUE", message: at.error };
    return { kind: "date", ms: shift.ms, at: at.time };
  }
  if (kind === "$id") {
    if (typeof node.$id !== "string" || node.$id === "") {
      return { code: "E_WORLD_VALUE", message: `$id must be a non-empty string label, not ${JSON.stringify(node.$id)}` };
    }
    return { kind: "id", label: node.$id };
  }
  if (typeof node.$expr !== "string") {
    return { code: "E_WORLD_VALUE", message: `$expr must be a JSONata expression string, not ${JSON.stringify(node.$expr)}` };
  }
  const compiled = compileBounded(node.$expr);
  if ("problem" in compiled) {
    const { code, message, offset } = compiled.problem;
    const at = offset === undefined ? "" : ` at character ${offset}`;
    return { code: "E_JSONATA_SYNTAX", message: `$expr does not compile${at}: ${message} (${code})`, ...(offset === undefined ? {} : { offset }) };
  }
  return { kind: "expr", expression: compiled.expression };
}

function valueError(code: string, message: string, path: JsonPath, context: Context, cause?: unknown): WorldError {
  const where = [context.scenario === undefined ? undefined : `scenario ${JSON.stringify(context.scenario)}`, context.where].filter(Boolean).join(" ");
  const prefix = where ? `${where}, ${formatPath(path)}` : formatPath(path);
  return new WorldError(code, `${prefix}: ${message}`, { path, scenario: context.scenario, cause });
}
