/**
 * TOON as the real servers write it. @toon-format/toon writes an empty array as `key: []` (and a
 * root one as `[]`); the servers write the length form `key[0]:` (`[0]:` at the root), which the
 * TOON spec allows too and the library decodes the same. An empty array that is itself a list
 * item is already written `- [0]:` by the library.
 */
import { decode, encode } from "@toon-format/toon";

/**
 * A line holding a key whose value is an empty array: indentation, an optional list-item marker,
 * then the key as the library writes it (bare `[A-Za-z_][\w.]*`, or quoted with `\` escapes).
 * The library never leaves a line break inside a value and always quotes a string `[]`, so only
 * an empty array can end a line with an unquoted `: []`.
 */
const EMPTY_ARRAY_ENTRY = /^( *(?:- )?)([A-Za-z_][\w.]*|"(?:[^"\\]|\\.)*"): \[\]$/;

/**
 * Encodes a value as TOON, writing empty arrays in the length form.
 *
 * @example
 * encodeToon({ notes: [] }); // "notes[0]:"
 * encodeToon([]); // "[0]:"
 */
export function encodeToon(value: unknown): string {
  const text = encode(value);
  if (text === "[]") return "[0]:";
  return text
    .split("\n")
    .map((line) => line.replace(EMPTY_ARRAY_ENTRY, "$1$2[0]:"))
    .join("\n");
}

/**
 * Decodes TOON (strict: declared lengths must match), returning the library's error message,
 * which names the line, instead of throwing.
 *
 * @example
 * decodeToon("notes[0]:"); // { ok: true, value: { notes: [] } }
 */
export function decodeToon(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: decode(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
