/**
 * Partial matching, as call matchers and `diff` entries read it: every key listed must be
 * present with an equal value; objects match partially, arrays element by element (same
 * length); `{ $pattern, $flags }` matches a string by regular expression, on RE2.
 */
import { type RegExpLike, re2Only } from "../../author/contract/index.js";

/** One place where an actual value differs from what was expected. */
export interface Mismatch {
  /** `id`, `customer.email`, `tags[1]`. */
  path: string;
  expected: unknown;
  /** `undefined` when missing. */
  actual: unknown;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** True for `{ $pattern, $flags? }`. */
export function isPattern(value: unknown): value is { $pattern: string; $flags?: string } {
  return isObject(value) && typeof value.$pattern === "string" && Object.keys(value).every((k) => k === "$pattern" || k === "$flags");
}

/**
 * The compiled pattern, or the error that says why there is none. Patterns run on RE2 (linear
 * in the text: an agent's answer cannot stall the judge) and nowhere else, so lookaround and
 * backreferences are refused.
 */
export function compilePattern(pattern: string, flags = ""): RegExpLike | Error {
  return re2Only(pattern, flags);
}

const join = (path: string, key: string | number) => (typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`);

function collect(expected: unknown, actual: unknown, path: string, out: Mismatch[]): void {
  if (isPattern(expected)) {
    const regex = compilePattern(expected.$pattern, expected.$flags);
    if (regex instanceof Error || typeof actual !== "string" || !regex.test(actual)) out.push({ path, expected, actual });
    return;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return void out.push({ path, expected, actual });
    for (const [key, value] of Object.entries(expected)) collect(value, Object.hasOwn(actual, key) ? actual[key] : undefined, join(path, key), out);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return void out.push({ path, expected, actual });
    expected.forEach((item, i) => collect(item, actual[i], join(path, i), out));
    return;
  }
  if (expected !== actual) out.push({ path, expected, actual });
}

/**
 * Where `actual` differs from the partial `expected`; none when it matches.
 *
 * @example mismatches({ id: "T-101" }, { id: "T-102", note: "x" }) // [{ path: "id", expected: "T-101", actual: "T-102" }]
 */
export function mismatches(expected: unknown, actual: unknown): Mismatch[] {
  const out: Mismatch[] = [];
  collect(expected, actual, "", out);
  return out;
}

/** A value as a message shows it: JSON, cut at 120 characters. */
export function show(value: unknown): string {
  if (value === undefined) return "(missing)";
  if (isPattern(value)) return `/${value.$pattern}/${value.$flags ?? ""}`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** `id = "T-101", status = "closed"`: an expectation as a message shows it. */
export function showExpected(expected: unknown): string {
  if (!isObject(expected) || isPattern(expected)) return show(expected);
  const entries = Object.entries(expected);
  if (entries.length === 0) return "any arguments";
  return entries.map(([k, v]) => `${k} ${isPattern(v) ? "~" : "="} ${show(v)}`).join(", ");
}

/** `id = "T-102"` for each mismatch: what was seen instead. */
export function showSeen(found: Mismatch[]): string {
  return found.map((m) => `${m.path || "(the value)"} = ${show(m.actual)}`).join(", ");
}
