import { decodeToon, encodeToon } from "../../author/contract/index.js";
import type { AnswerSpec } from "../../author/contract/index.js";
import { REDACTED, redactFreeText } from "./free-text.js";
import { keptUnderSecret, redactJsonText } from "./json-text.js";
import type { SecretNames } from "./secret-names.js";

export { REDACTED } from "./free-text.js";
export { secretNames, type SecretNames } from "./secret-names.js";

/** What stands for a value nested deeper than evidence follows. */
export const TOO_DEEP = "[TOO DEEP]";
/** Evidence follows values this deep; a client cannot make it overflow the stack. */
const MAX_DEPTH = 64;

type Entry = (key: string, value: unknown) => unknown;

/**
 * An object with each entry passed through `each`: the same object when nothing changed, else a
 * copy (whose `__proto__` key, if any, stays data).
 */
function mapEntries(value: object, each: Entry): object {
  const entries = Object.entries(value);
  const next = entries.map(([key, item]) => each(key, item));
  if (next.every((item, index) => item === entries[index][1])) return value;
  const out: Record<string, unknown> = {};
  entries.forEach(([key], index) => Object.defineProperty(out, key, { value: next[index], enumerable: true, writable: true, configurable: true }));
  return out;
}

/** A field's value, redacted whole when its name is a secret, else searched. */
function field(key: string, item: unknown, names: SecretNames, depth: number): unknown {
  if (names.field(key) && !keptUnderSecret(item, key, names)) return REDACTED;
  return redact(item, names, depth + 1);
}

/**
 * A JSON value with every secret replaced by `[REDACTED]`: the value of each secret-named field
 * (except `null`, booleans and token counts) and the secrets inside strings (pairs, URL
 * passwords); cut at a depth no stack overflows at. The same value when it holds no secret.
 *
 * @example redact({ user: "a", password: "p" }, secretNames()) // { user: "a", password: "[REDACTED]" }
 */
export function redact(value: unknown, names: SecretNames, depth = 0): unknown {
  if (typeof value === "string") return redactFreeText(value, names);
  if (!value || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) {
    const next = value.map((item) => redact(item, names, depth + 1));
    return next.every((item, index) => item === value[index]) ? value : next;
  }
  return mapEntries(value, (key, item) => field(key, item, names, depth));
}

/**
 * Query or form parameters: their names read as parameters (`key`, `sig` are secrets there).
 *
 * @example redactParams({ key: "AIza…", q: "x" }, secretNames()) // { key: "[REDACTED]", q: "x" }
 */
export function redactParams(params: unknown, names: SecretNames): unknown {
  if (!params || typeof params !== "object" || Array.isArray(params)) return redact(params, names);
  return mapEntries(params, (key, item) => (names.param(key) && !keptUnderSecret(item, key, names) ? REDACTED : redact(item, names, 1)));
}

/**
 * Text with its secrets redacted, the rest kept as the client received it: JSON in place, the
 * tool's prefixed JSON around its prefix, TOON read as the tool's answer format (and written
 * again when it held a secret), anything else as free text (pairs, URL passwords).
 *
 * @example redactText('{ "token": "t" }', secretNames()) // '{ "token": "[REDACTED]" }'
 */
export function redactText(text: string, names: SecretNames, answer?: AnswerSpec): string {
  if (answer?.format === "prefixed_json" && answer.prefix !== undefined && text.startsWith(answer.prefix)) {
    const suffix = answer.suffix ?? "";
    if (text.length >= answer.prefix.length + suffix.length && text.endsWith(suffix)) {
      const inner = text.slice(answer.prefix.length, text.length - suffix.length);
      return answer.prefix + redactText(inner, names) + suffix;
    }
  }
  if (/^\s*[[{"]/.test(text) && isJson(text)) return redactJsonText(text, names);
  if (answer?.format === "toon") {
    const decoded = decodeToon(text);
    if (decoded.ok) {
      const redacted = redact(decoded.value, names);
      return redacted === decoded.value ? text : encodeToon(redacted);
    }
  }
  return redactFreeText(text, names);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A tool result with its secrets redacted: its structured content, and each text item read as
 * the tool's answer format (or JSON). The same result when it holds no secret.
 *
 * @example redactResult({ content: [{ type: "text", text: '{"token":"t"}' }] }, secretNames())
 */
export function redactResult(result: unknown, names: SecretNames, answer?: AnswerSpec): unknown {
  if (!result || typeof result !== "object" || Array.isArray(result)) return redact(result, names);
  return mapEntries(result, (key, value) => {
    if (key !== "content" || !Array.isArray(value)) return field(key, value, names, 0);
    const items = value.map((item: unknown) => {
      const text = (item as { type?: unknown; text?: unknown } | null)?.type === "text" ? (item as { text?: unknown }).text : undefined;
      if (typeof text !== "string") return redact(item, names, 2);
      const redacted = redactText(text, names, answer);
      return mapEntries(item as object, (name, part) => (name === "text" ? redacted : field(name, part, names, 2)));
    });
    return items.every((item, index) => item === value[index]) ? value : items;
  });
}

/**
 * Whether a value is larger than `limit` characters as JSON, found without serialising it:
 * the walk stops as soon as it knows.
 */
export function largerThan(value: unknown, limit: number): boolean {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") size += item.length + 2;
    else if (item && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        size += key.length + 4;
        pending.push(child);
      }
    } else size += 5;
    if (size > limit) return true;
  }
  return false;
}
