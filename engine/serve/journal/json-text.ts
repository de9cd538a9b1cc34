/**
 * Secrets inside JSON text, replaced where they stand: the text is walked once (no recursion, so
 * any depth is fine), each value under a secret key is replaced by `"[REDACTED]"` and each other
 * string that may hold a secret (a pair, a URL, an escape, a key's shape) is searched as free text. Everything else (spacing, key order, number spelling,
 * escapes) stays as the client received it.
 */
import { REDACTED, redactFreeText } from "./free-text.js";
import type { SecretNames } from "./secret-names.js";
import { secretShapes } from "./secret-shapes.js";

/** Whether a value under a secret name is kept: `null`, booleans, and counts (`max_tokens: 256`). */
export function keptUnderSecret(value: unknown, name: string, names: SecretNames): boolean {
  return value === null || value === undefined || typeof value === "boolean" || (typeof value === "number" && names.counts(name));
}

/** The index just past the string that starts (with its quote) at `start`. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let slashes = 0;
    while (text[quote - 1 - slashes] === "\\") slashes++;
    if (slashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** The index just past the value (of any kind) that starts at `start`. */
function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== "{" && first !== "[") {
    let at = start;
    for (let code = text.charCodeAt(at); at < text.length && code > 32 && code !== 44 && code !== 93 && code !== 125; code = text.charCodeAt(++at));
    return at;
  }
  let depth = 0;
  let at = start;
  while (at < text.length) {
    const char = text[at];
    if (char === '"') {
      at = stringEnd(text, at);
      continue;
    }
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return at + 1;
    }
    at++;
  }
  return at;
}

/** Whether the string token at `start..end` holds `=`, `:` or an escape that could spell them. */
function mayHoldSecret(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 61 || code === 58 || code === 92) return true;
  }
  return false;
}

interface Frame {
  object: boolean;
  /** The key whose value comes next, in an object. */
  key?: string;
  expectingKey: boolean;
}

/**
 * Valid JSON text with its secrets redacted in place; the same string when there are none.
 *
 * @example redactJsonText('{\n  "token": "t",\n  "n": 1\n}', secretNames()) // '{\n  "token": "[REDACTED]",\n  "n": 1\n}'
 */
export function redactJsonText(text: string, names: SecretNames): string {
  const parts: string[] = [];
  let kept = 0;
  const replace = (start: number, end: number, by: string) => {
    parts.push(text.slice(kept, start), by);
    kept = end;
  };
  // Where key-shaped values start, found once over the whole text: a string holding one is searched.
  const shaped: Array<[number, number]> = [];
  secretShapes(text, shaped);
  let nextShape = 0;
  const holdsShape = (start: number, end: number) => {
    while (nextShape < shaped.length && shaped[nextShape][0] < start) nextShape++;
    return nextShape < shaped.length && shaped[nextShape][0] < end;
  };
  const frames: Frame[] = [];
  const valueDone = () => {
    const top = frames[frames.length - 1];
    if (top?.object) top.expectingKey = true;
  };
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    const top = frames[frames.length - 1];
    if (char === " " || char === "\n" || char === "\r" || char === "\t" || char === "," || char === ":") {
      at++;
      continue;
    }
    if (char === "}" || char === "]") {
      frames.pop();
      valueDone();
      at++;
      continue;
    }
    if (top?.object && top.expectingKey) {
      const end = stringEnd(text, at);
      const raw = text.slice(at + 1, end - 1);
      top.key = raw.includes("\\") ? (JSON.parse(text.slice(at, end)) as string) : raw;
      top.expectingKey = false;
      at = end;
      continue;
    }
    if (top?.object && top.key !== undefined && names.field(top.key)) {
      const end = valueEnd(text, at);
      const scalar = char !== "{" && char !== "[" && char !== '"' ? (JSON.parse(text.slice(at, end)) as unknown) : "";
      if (!keptUnderSecret(scalar, top.key, names)) replace(at, end, `"${REDACTED}"`);
      valueDone();
      at = end;
      continue;
    }
    if (char === "{" || char === "[") {
      frames.push({ object: char === "{", expectingKey: char === "{" });
      at++;
      continue;
    }
    const end = valueEnd(text, at);
    // Only a string that could hold a pair, a URL or a key is decoded and searched (`\u` may spell any).
    if (char === '"' && (mayHoldSecret(text, at, end) || holdsShape(at, end))) {
      const value = JSON.parse(text.slice(at, end)) as string;
      const redacted = redactFreeText(value, names);
      if (redacted !== value) replace(at, end, JSON.stringify(redacted));
    }
    valueDone();
    at = end;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(kept));
  return parts.join("");
}
