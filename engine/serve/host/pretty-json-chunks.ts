/**
 * `JSON.stringify(value, null, 2)` in pieces, byte for byte: a snapshot of a large world is
 * serialised a piece at a time, so the event loop answers calls between the pieces instead of
 * stopping for the whole world. The containers near the top (fakes, entities, the records of an
 * entity) are walked here; each value below them is one `JSON.stringify`. A world's values are
 * frozen, so the pieces written later still belong to the world the walk began with.
 */
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { open } from "node:fs/promises";

type Json = Record<string, unknown>;

/** How many records (or keys) of a large entity one piece holds. */
const SLICE = 256;

const isPlainObject = (value: unknown): value is Json => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
};

/** Text JSON.stringify wrote at the top level, indented as it would be `indent` deeper. */
const indented = (text: string, indent: string) => (indent === "" ? text : text.replace(/\n/g, `\n${indent}`));

/** A value as JSON.stringify writes it inside a container indented `indent`; undefined where it writes nothing. */
function whole(value: unknown, indent: string): string | undefined {
  const text = JSON.stringify(value, null, 2) as string | undefined;
  // Strings never hold a raw newline in JSON: every newline is the layout's.
  return text === undefined ? undefined : indented(text, indent);
}

/** The members of a container, a slice at a time: each slice written by JSON.stringify, its brackets cut off. */
function* slices(open: "[" | "{", count: number, slice: (from: number) => unknown, indent: string): Generator<string> {
  let first = true;
  for (let from = 0; from < count; from += SLICE) {
    const text = JSON.stringify(slice(from), null, 2);
    // A slice of keys JSON writes none of (each undefined) adds nothing.
    if (text.length <= 2) continue;
    yield `${first ? open : ","}\n${indent}${indented(text.slice(2, -2), indent)}`;
    first = false;
  }
  const close = open === "[" ? "]" : "}";
  yield first ? `${open}${close}` : `\n${indent}${close}`;
}

/**
 * The pieces of `JSON.stringify(value, null, 2)`, in order; joined, they are exactly its text.
 * The world's fakes and entities are walked one by one; a large entity (an array of records, an
 * object keyed by id) is written a slice of records at a time.
 *
 * @example [...prettyJsonChunks({ notes: { counter: 1 } })].join("") === JSON.stringify({ notes: { counter: 1 } }, null, 2)
 */
export function* prettyJsonChunks(value: unknown, indent = "", depth = 0): Generator<string> {
  if (Array.isArray(value) && value.length > SLICE && depth <= 2) {
    yield* slices("[", value.length, (from) => value.slice(from, from + SLICE), indent);
    return;
  }
  if (isPlainObject(value) && depth < 2) {
    const inner = `${indent}  `;
    let first = true;
    for (const key of Object.keys(value)) {
      const item = value[key];
      const walked = isPlainObject(item) || Array.isArray(item);
      const text = walked ? undefined : whole(item, inner);
      // A key whose value JSON cannot write is left out, as stringify leaves it.
      if (!walked && text === undefined) continue;
      yield `${first ? "{" : ","}\n${inner}${JSON.stringify(key)}: `;
      first = false;
      if (text !== undefined) yield text;
      else yield* prettyJsonChunks(item, inner, depth + 1);
    }
    yield first ? "{}" : `\n${indent}}`;
    return;
  }
  if (isPlainObject(value) && depth === 2) {
    const keys = Object.keys(value);
    if (keys.length > SLICE) {
      const slice = (from: number) => {
        // No prototype: a key named __proto__ is a key like any other.
        const part: Json = Object.create(null);
        for (const key of keys.slice(from, from + SLICE)) part[key] = value[key];
        return part;
      };
      yield* slices("{", keys.length, slice, indent);
      return;
    }
  }
  yield whole(value, indent) ?? "null";
}

/**
 * Writes `value` as `JSON.stringify(value, null, 2)` and a newline to `file`, `pieceChars` at a
 * time and fsynced, so the event loop answers calls between the pieces. A file not written whole
 * is removed. Gives the text's sha256, its bytes, and the time spent serialising (not waiting on
 * the disk), which says how often such a snapshot may be afforded.
 *
 * @example const { digest } = await writePrettyJsonInPieces("state.json.1.tmp", world, 64 * 1024);
 */
export async function writePrettyJsonInPieces(file: string, value: unknown, pieceChars: number): Promise<{ digest: string; bytes: number; busyMs: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  let busyMs = 0;
  const handle = await open(file, "w");
  let done = false;
  try {
    let pieces: string[] = [];
    let length = 0;
    const flush = async () => {
      const text = pieces.join("");
      pieces = [];
      length = 0;
      hash.update(text);
      bytes += Buffer.byteLength(text);
      await handle.write(text);
    };
    let started = performance.now();
    for (const piece of prettyJsonChunks(value)) {
      pieces.push(piece);
      length += piece.length;
      if (length < pieceChars) continue;
      busyMs += performance.now() - started;
      await flush();
      started = performance.now();
    }
    pieces.push("\n");
    busyMs += performance.now() - started;
    await flush();
    await handle.sync();
    done = true;
  } finally {
    await handle.close();
    if (!done) rmSync(file, { force: true });
  }
  return { digest: hash.digest("hex"), bytes, busyMs };
}
