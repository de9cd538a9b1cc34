import { decodeToon, encodeToon } from "../contract/index.js";
import type { AnswerSpec } from "../contract/index.js";
import { redactJsonText } from "./redact-in-place.js";

/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";
/** What stands for a value nested deeper than evidence follows. */
export const TOO_DEEP = "[TOO DEEP]";
/** Evidence follows values this deep; a client cannot make it overflow the stack. */
const MAX_DEPTH = 64;

/**
 * Field and header names redacted by default, compared without case, dashes or underscores:
 * credentials an agent or a handler might pass through a fake.
 */
const DEFAULT_NAMES = [
  "authorization", "proxyauthorization", "cookie", "setcookie",
  "token", "accesstoken", "refreshtoken", "idtoken", "bearer", "sessionid", "sessiontoken",
  "password", "passwd", "passphrase", "secret", "clientsecret", "apikey", "xapikey", "privatekey",
];
/** A name ending in one of these is a secret too (`githubToken`, `db_password`, `stripeApiKey`). */
const SECRET_SUFFIXES = ["token", "secret", "password", "apikey"];

const normalise = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "");

/**
 * Decides which names are secrets: the defaults, names ending like one, and the manifest's
 * `redact` list (case-insensitive).
 *
 * @example const isSecret = secretNames(["accessCode"]); isSecret("X-Api-Key") // true
 */
export function secretNames(extra: readonly string[] = []): (name: string) => boolean {
  const names = new Set([...DEFAULT_NAMES, ...extra.map(normalise)]);
  return (name) => {
    const n = normalise(name);
    return names.has(n) || SECRET_SUFFIXES.some((suffix) => n.endsWith(suffix));
  };
}

/**
 * A deep copy of a JSON value with every secret field's value replaced by `[REDACTED]`, cut at
 * a depth no stack overflows at. Secrets inside free text are not found: keep them out of fixtures.
 *
 * @example redact({ user: "a", password: "p" }, secretNames()) // { user: "a", password: "[REDACTED]" }
 */
export function redact(value: unknown, isSecret: (name: string) => boolean, depth = 0): unknown {
  if (!value || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => redact(item, isSecret, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty keeps a "__proto__" key as data.
    Object.defineProperty(out, key, {
      value: isSecret(key) && item !== null && item !== undefined ? REDACTED : redact(item, isSecret, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * Text with its secrets redacted where its structure can be read: JSON, the tool's own answer
 * format (TOON, prefixed JSON), or a form/query string. Other text is left as it is.
 *
 * @example redactText('{"token":"t"}', secretNames()) // '{"token":"[REDACTED]"}'
 */
export function redactText(text: string, isSecret: (name: string) => boolean, answer?: AnswerSpec): string {
  if (answer?.format === "prefixed_json" && answer.prefix !== undefined && text.startsWith(answer.prefix)) {
    const suffix = answer.suffix ?? "";
    if (text.endsWith(suffix)) {
      const inner = text.slice(answer.prefix.length, text.length - suffix.length);
      return answer.prefix + redactText(inner, isSecret) + suffix;
    }
  }
  if (/^\s*[[{]/.test(text)) {
    try {
      JSON.parse(text);
      // The evidence keeps the bytes the client received: secrets are replaced where they stand.
      return redactJsonText(text, isSecret);
    } catch {
      // Not JSON after all.
    }
  }
  if (answer?.format === "toon") {
    const decoded = decodeToon(text);
    // Re-encoded only when a secret was replaced (TOON has no in-place form here).
    if (decoded.ok) {
      const redacted = redact(decoded.value, isSecret);
      if (JSON.stringify(redacted) !== JSON.stringify(decoded.value)) return encodeToon(redacted);
    }
  }
  if (/^[\w.%+-]+=[^\s]*(&[\w.%+-]+=[^\s]*)*$/.test(text)) {
    const params = new URLSearchParams(text);
    const secrets = [...new Set(params.keys())].filter(isSecret);
    for (const key of secrets) params.set(key, REDACTED);
    if (secrets.length > 0) return params.toString();
  }
  return text;
}

/**
 * A tool result with its secrets redacted: its structured content, and each text item read as
 * the tool's answer format (or JSON).
 *
 * @example redactResult({ content: [{ type: "text", text: '{"token":"t"}' }] }, secretNames())
 */
export function redactResult(result: unknown, isSecret: (name: string) => boolean, answer?: AnswerSpec): unknown {
  const redacted = redact(result, isSecret) as { content?: Array<{ type?: string; text?: unknown }> } | undefined;
  for (const item of redacted?.content ?? []) {
    if (item?.type === "text" && typeof item.text === "string") item.text = redactText(item.text, isSecret, answer);
  }
  return redacted;
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
