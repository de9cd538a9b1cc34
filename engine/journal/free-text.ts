/**
 * Secrets inside text that has no structure to read (a form body, a log line, truncated JSON,
 * a string value): `name=value` and `name: value` pairs under a secret name, and the password of
 * a URL's userinfo. Only the secret's characters are replaced; the rest of the text is kept as
 * it was, byte for byte.
 */
import type { SecretNames } from "./secret-names.js";

/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";

/** `scheme://user:password@`: the password is the second group. Bounded, so it cannot backtrack far. */
const USERINFO = /\b([a-z][a-z\d+.-]{0,31}:\/\/[^\s/?#@:"'<>\\]{0,256}:)([^\s/?#@"'<>\\]{1,256})(?=@)/gi;
/**
 * A name at a word boundary, optionally quoted, then `=` or `:`. The boundary (a lookbehind)
 * keeps the scan linear: a name is tried only where one can start.
 */
const PAIR = /(?<![\w.$-])(["']?)([A-Za-z_$][\w.$-]{0,63})\1[ \t]{0,8}([=:])[ \t]{0,8}/g;
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
 * Text with the values of secret-named pairs and URL passwords replaced by `[REDACTED]`, the
 * rest unchanged: `password=hunter2&user=ada` → `password=[REDACTED]&user=ada`. After `=` a name
 * is read as a parameter (`key`, `sig` count); a quoted name as a field; a bare name before `:`
 * as prose, where `Session:` is not a secret.
 *
 * @example redactFreeText("login with password=hunter2 now", secretNames()) // "login with password=[REDACTED] now"
 */
export function redactFreeText(text: string, names: SecretNames): string {
  let out = text.includes("://") ? text.replace(USERINFO, (_, head: string) => head + REDACTED) : text;
  if (!out.includes("=") && !out.includes(":")) return out;
  const source = out;
  const parts: string[] = [];
  let kept = 0;
  PAIR.lastIndex = 0;
  for (let match = PAIR.exec(source); match; match = PAIR.exec(source)) {
    const [whole, quote, name, separator] = match;
    const secret = separator === "=" ? names.param(name) : quote ? names.field(name) : names.prose(name);
    if (!secret) continue;
    const start = match.index + whole.length;
    // `https://…` and `C:\…` are not pairs; nor is a name that is itself the end of the text.
    if (separator === ":" && source[start] === "/" && source[start + 1] === "/") continue;
    const span = valueSpan(source, start, separator, !quote && atLineStart(source, match.index));
    if (!span) continue;
    parts.push(source.slice(kept, span[0]), REDACTED);
    kept = span[1];
    PAIR.lastIndex = Math.max(PAIR.lastIndex, span[1]);
  }
  if (parts.length === 0) return out;
  parts.push(source.slice(kept));
  out = parts.join("");
  return out;
}
