/**
 * What a results file's line must hold before a report, a comparison or a resume reads it: every
 * field the summaries add up or walk, of the type they expect. A results file is often a CI
 * artifact from elsewhere; a line of the wrong shape is named, never a TypeError deep inside a
 * report.
 */

type Json = Record<string, unknown>;

const STATUSES = ["pass", "fail", "not_evaluated", "not_run", "skipped"];

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const shape = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "a list" : typeof value);
const isCount = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0;
const isAmount = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value >= 0;
const isStrings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");

/** Each field: whether it must be there, its test, and what it must be (for the message). */
const FIELDS: Array<[name: string, required: boolean, test: (value: unknown) => boolean, what: string]> = [
  ["case", true, (v) => typeof v === "string" && v !== "", "a case id (a string)"],
  ["iteration", true, isCount, "a whole number of at least 0"],
  ["model", true, (v) => typeof v === "string", "a string"],
  ["status", true, (v) => typeof v === "string" && STATUSES.includes(v), `one of ${STATUSES.join(", ")}`],
  ["assertions", true, (v) => Array.isArray(v) && v.every(isObject), "a list of results"],
  ["calls", true, isCount, "a whole number of at least 0"],
  ["usage", true, (v) => isObject(v) && isAmount(v.inputTokens) && isAmount(v.outputTokens), "{ inputTokens, outputTokens } (numbers)"],
  ["requests", false, isCount, "a whole number of at least 0"],
  ["costUsd", true, isAmount, "a number of at least 0"],
  ["durationMs", true, isAmount, "a number of at least 0"],
  ["reason", false, (v) => typeof v === "string", "a string"],
  ["answer", false, (v) => typeof v === "string", "a string"],
  ["answerBytes", false, isCount, "a whole number of at least 0"],
  [
    "session",
    false,
    (v) => isObject(v) && typeof v.id === "string" && Array.isArray(v.record) && v.record.every(isObject),
    "{ id, record } (a string and a list of calls)",
  ],
  ["iterations", false, (v) => isCount(v) && (v as number) >= 1, "a whole number of at least 1"],
  ["accuracyThreshold", false, (v) => typeof v === "number" && v >= 0 && v <= 1, "a share between 0 and 1"],
  ["variant", false, (v) => typeof v === "string", "a string"],
  ["caseHash", false, (v) => typeof v === "string", "a string"],
  [
    "badCalls",
    false,
    (v) => isObject(v) && ["repeatedAfterError", "schemaRefused", "insistence", "total"].every((k) => isCount(v[k])),
    "{ repeatedAfterError, schemaRefused, insistence, total } (counts)",
  ],
  ["outside", false, (v) => Array.isArray(v) && v.every(isObject), "a list of requests"],
  ["suite", false, (v) => typeof v === "string", "a string"],
  [
    "transcript",
    false,
    (v) => Array.isArray(v) && v.every((m) => isObject(m) && isCount(m.turn) && ["user", "assistant", "tool"].includes(m.role as string)),
    "a list of messages ({ turn, role: user | assistant | tool })",
  ],
  ["turns", false, isCount, "a whole number of at least 0"],
  [
    "user",
    false,
    (v) => isObject(v) && typeof v.model === "string" && isCount(v.requests) && isObject(v.usage) && isAmount(v.costUsd),
    "{ model, requests, usage, costUsd }",
  ],
  ["traceId", false, (v) => typeof v === "string" && /^[0-9a-f]{32}$/.test(v), "a trace id (32 hex digits)"],
  ["tags", false, isStrings, "a list of strings"],
  ["startedAt", false, (v) => typeof v === "string", "a string"],
];

/** The fields only a selection line (`kind: selection`) has. */
const SELECTION_FIELDS: typeof FIELDS = [
  ["area", false, (v) => typeof v === "string", "a string"],
  ["expected", true, isStrings, "a list of tool ids"],
  ["chosen", true, isStrings, "a list of tool ids"],
];

/**
 * Why a parsed line is not a trial line (`assertions must be a list`), or undefined when it is.
 * Read only by field name (`Object.hasOwn`), so a `__proto__` key is a field like any other.
 *
 * @example trialLineProblem({ case: "a", iteration: "0" }) // "iteration must be a whole number of at least 0"
 */
export function trialLineProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `it is ${shape(value)}, not an object`;
  if (Object.hasOwn(value, "__proto__")) return "it has a __proto__ key";
  const fields = value.kind === "selection" ? [...FIELDS, ...SELECTION_FIELDS] : FIELDS;
  if (value.kind !== undefined && value.kind !== "selection") return `kind must be "selection" or absent, not ${JSON.stringify(value.kind)?.slice(0, 40)}`;
  for (const [name, required, test, what] of fields) {
    if (!Object.hasOwn(value, name)) {
      if (required) return `it has no ${name} (${what})`;
      continue;
    }
    if (!test(value[name])) return `${name} must be ${what}, not ${shape(value[name])}`;
  }
  return undefined;
}
