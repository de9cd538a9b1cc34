/**
 * Secrets inside text that has no structure to read (a form body, a log line, truncated JSON,
 * a string value): `name=value` and `name: value` pairs under a secret name, the password of
 * a URL's userinfo, and values shaped like keys (secret-shapes.ts). Only the secret's characters
 * are replaced; the rest of the text is kept as it was, byte for byte.
 */
import type { SecretNames } from "./secret-names.js";
import { secretShapes } from "./secret-shapes.js";

/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";

/** Characters of a name in a pair (`client.secret`, `x-api-key`, `$token`). */
const NAME_CHAR = /[\w.$-]/;
/** Characters a URL's userinfo cannot hold unencoded: where a password search stops. */
const NOT_USERINFO = /[\s/?#@"'<>\\]/;
const SCHEME_CHAR = /[a-z\d+.-]/i;
/** Characters that end a bare value: after `=` a query or form value, after `:` a word. */
const END_AFTER_EQUALS = /[\s&;,"'<>()[\]{}]/;
const END_AFTER_COLON = /[\s;,"'<>()[\]{}&]/;
/** Authorization schemes: the credentials follow them after a space (`Bearer abc`). */
const SCHEMES = new Set(["bearer", "basic", "digest", "token", "negotiate", "bot", "apikey", "ntlm"]);

/** Where a value starting at `start` ends, per its kind; `undefined` when it is not a value to redact. */
function valueSpan(text: string, start: number, separator: string, lineStart: boolean): [number, number] | undefined {
  const first = text[start];
  if (first === undefined || first === "\n" || first === "\r" || first === "{" || first === "[") return undefined;
  if (first === '"' || first === "'") {
    let end = start + 1;
    while (end < text.length && text[end] !== first && text[end] !== "\n") end += text[end] === "\\" ? 2 : 1;
    end = Math.min(end, text.length);
    return end > start + 1 ? [start + 1, end] : undefined;
  }
  // A header-like line (`Authorization: Bearer abc`) holds its value to the end of the line.
  if (separator === ":" && lineStart) {
    let end = start;
    while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    return end > start ? [start, end] : undefined;
  }
  const stop = separator === "=" ? END_AFTER_EQUALS : END_AFTER_COLON;
  let end = start;
  while (end < text.length && !stop.test(text[end])) end++;
  if (end === start) return undefined;
  // `Bearer abc`: the scheme is not the secret, the credentials after it are.
  if (SCHEMES.has(text.slice(start, end).toLowerCase()) && text[end] === " " && end + 1 < text.length && !stop.test(text[end + 1])) {
    end++;
    while (end < text.length && !stop.test(text[end])) end++;
  }
  return [start, end];
}

/** Whether the name at `index` is the first thing on its line (only spaces before it). */
function atLineStart(text: string, index: number): boolean {
  let at = index - 1;
  while (at >= 0 && (text[at] === " " || text[at] === "\t")) at--;
  return at < 0 || text[at] === "\n" || text[at] === "\r";
}

/**
 * Text with the values of secret-named pairs, URL passwords and key-shaped values (`sk-…`,
 * `ghp_…`, a JWT, a PEM private key, `Bearer <token>`) replaced by `[REDACTED]`, the rest unchanged: `password=hunter2&user=ada` → `password=[REDACTED]&user=ada`. After `=` a name
 * is read as a parameter (`key`, `sig` count); a quoted name as a field; a bare name before `:`
 * as prose, where `Session:` is not a secret.
 *
 * @example redactFreeText("login with password=hunter2 now", secretNames()) // "login with password=[REDACTED] now"
 */
export function redactFreeText(text: string, names: SecretNames): string {
  const spans: Array<[number, number]> = [];
  if (text.includes("://")) userinfoPasswords(text, spans);
  if (text.includes("=") || text.includes(":")) secretPairs(text, names, spans);
  secretShapes(text, spans);
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let kept = 0;
  for (const [start, end] of spans) {
    if (start < kept) {
      // Overlaps the span just redacted (a URL password inside a pair's value): widen it.
      kept = Math.max(kept, end);
      continue;
    }
    parts.push(text.slice(kept, start), REDACTED);
    kept = end;
  }
  parts.push(text.slice(kept));
  return parts.join("");
}

/** The password of each `scheme://user:password@host` in the text. */
function userinfoPasswords(text: string, spans: Array<[number, number]>): void {
  for (let at = text.indexOf("://"); at >= 0; at = text.indexOf("://", at + 3)) {
    if (at === 0 || !SCHEME_CHAR.test(text[at - 1])) continue;
    let colon = -1;
    let end = at + 3;
    // Userinfo is short; a bounded look keeps a text of many "://" linear.
    const limit = Math.min(text.length, at + 3 + 512);
    while (end < limit && !NOT_USERINFO.test(text[end])) {
      if (text[end] === ":" && colon < 0) colon = end;
      end++;
    }
    if (text[end] === "@" && colon >= 0 && end > colon + 1) spans.push([colon + 1, end]);
  }
}

/**
 * Each `name=value` and `name: value` whose name is a secret. Separators are found with
 * indexOf and the name read backwards from each (at most 64 characters), so the scan is linear.
 */
function secretPairs(text: string, names: SecretNames, spans: Array<[number, number]>): void {
  let resume = 0;
  const next = separators(text);
  for (let sep = next(); sep >= 0; sep = next()) {
    if (sep < resume) continue;
    const separator = text[sep];
    let end = sep;
    for (let spaces = 0; spaces < 8 && (text[end - 1] === " " || text[end - 1] === "\t"); spaces++) end--;
    const quote = text[end - 1] === '"' || text[end - 1] === "'" ? text[end - 1] : "";
    if (quote) end--;
    let start = end;
    while (start > 0 && end - start < 64 && NAME_CHAR.test(text[start - 1])) start--;
    if (start === end || (start > 0 && NAME_CHAR.test(text[start - 1])) || !/[A-Za-z_$]/.test(text[start])) continue;
    if (quote && text[start - 1] !== quote) continue;
    const name = text.slice(start, end);
    const secret = separator === "=" ? names.param(name) : quote ? names.field(name) : names.prose(name);
    if (!secret) continue;
    let value = sep + 1;
    for (let spaces = 0; spaces < 8 && (text[value] === " " || text[value] === "\t"); spaces++) value++;
    // `https://…` is a scheme, not a pair.
    if (separator === ":" && text[value] === "/" && text[value + 1] === "/") continue;
    const span = valueSpan(text, value, separator, !quote && atLineStart(text, start));
    if (!span) continue;
    spans.push(span);
    resume = span[1];
  }
}

/** The positions of `=` and `:` in order, each searched for once. */
function separators(text: string): () => number {
  let equals = text.indexOf("=");
  let colon = text.indexOf(":");
  return () => {
    if (equals < 0 && colon < 0) return -1;
    if (colon < 0 || (equals >= 0 && equals < colon)) {
      const at = equals;
      equals = text.indexOf("=", at + 1);
      return at;
    }
    const at = colon;
    colon = text.indexOf(":", at + 1);
    return at;
  };
}
