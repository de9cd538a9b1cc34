import { isPlainObject } from "../world/index.js";
import { jsonErrorOffset } from "../source/index.js";
import type { LoadContext } from "./load-context.js";
import type { PathSegment } from "../source/index.js";

/**
 * Scenario values kept in data files: `{ $file: data/records.json }` stands for the file's JSON
 * (or, for `.jsonl`, the array of its lines' values), read relative to the manifest under the
 * same rules as every file it names. A large world belongs in JSON: it parses about a hundred
 * times faster than YAML. The data then counts as if written in place: merged, its special
 * values resolved, checked against the entity schemas.
 */

type Json = Record<string, unknown>;

/**
 * How deep data read from a file may nest. Worlds are walked, copied and checked by recursive
 * code (and by ajv), which a hostile file 100,000 levels deep would overflow.
 */
export const MAX_DATA_DEPTH = 256;

/**
 * Replaces every `{ $file }` in the scenarios' states and the entities' defaults with its file's
 * data, in place, reporting a file that cannot be read or parsed (then the value is null: the
 * world is not built while an error stands).
 */
export function readScenarioFiles(document: Json, context: LoadContext): void {
  const scenarios = isPlainObject(document.scenarios) ? document.scenarios : {};
  for (const [name, scenario] of Object.entries(scenarios)) {
    if (isPlainObject(scenario) && isPlainObject(scenario.state)) replaceFiles(scenario.state, ["scenarios", name, "state"], context);
  }
  for (const kind of ["servers", "apis"] as const) {
    const fakes = isPlainObject(document[kind]) ? (document[kind] as Json) : {};
    for (const [id, fake] of Object.entries(fakes)) {
      const entities = isPlainObject(fake) && isPlainObject(fake.entities) ? fake.entities : {};
      for (const [entity, spec] of Object.entries(entities)) {
        if (isPlainObject(spec) && spec.default !== undefined) replaceFiles(spec, [kind, id, "entities", entity], context, "default");
      }
    }
  }
}

/** Walks `parent` (without entering data already read) and swaps each `{ $file }` for its data. */
function replaceFiles(parent: Json | unknown[], path: PathSegment[], context: LoadContext, only?: string): void {
  const pending: Array<[Json | unknown[], PathSegment[]]> = [[parent, path]];
  while (pending.length > 0) {
    const [node, at] = pending.pop() as [Json | unknown[], PathSegment[]];
    const keys: PathSegment[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const key of keys) {
      if (node === parent && only !== undefined && key !== only) continue;
      const value = (node as Record<PathSegment, unknown>)[key];
      // Most values of a large world are scalars: no path is built for them.
      if (value === null || typeof value !== "object") continue;
      if (isPlainObject(value) && Object.hasOwn(value, "$file")) {
        (node as Record<PathSegment, unknown>)[key] = readDataFile(value, [...at, key], context);
      } else if (Array.isArray(value) || isPlainObject(value)) {
        pending.push([value as Json | unknown[], [...at, key]]);
      }
    }
  }
}

function readDataFile(reference: Json, path: PathSegment[], context: LoadContext): unknown {
  const name = reference.$file;
  const extra = Object.keys(reference).filter((key) => key !== "$file");
  if (extra.length > 0) {
    context.report.error("E_WORLD_VALUE", path, `$file stands alone as { $file: "data/file.json" }; remove ${extra.map((k) => JSON.stringify(k)).join(", ")}`);
    return null;
  }
  if (typeof name !== "string" || !/\.jsonl?$/i.test(name)) {
    context.report.error("E_WORLD_VALUE", [...path, "$file"], `$file names a .json or .jsonl data file, not ${JSON.stringify(name)}`);
    return null;
  }
  const read = context.files.read(name);
  if (!read.ok) {
    context.report.error("E_IO", [...path, "$file"], `cannot read the data file ${name}: it ${read.reason}`);
    return null;
  }
  const parsed = /\.jsonl$/i.test(name) ? parseJsonLines(read.text) : parseJson(read.text);
  if ("offset" in parsed) {
    // Placed in the data file, at its line and column; the message quotes none of the file.
    const position = positionIn(read.text, parsed.offset);
    context.report.error("E_FILE_PARSE", [...path, "$file"], `${name} is not valid ${/\.jsonl$/i.test(name) ? "JSON Lines" : "JSON"}: ${parsed.message}`, {
      in: { file: read.file, position },
      hint: "Fix the data file's JSON.",
    });
    return null;
  }
  const depth = depthOf(parsed.value);
  if (depth > MAX_DATA_DEPTH) {
    context.report.error("E_WORLD_VALUE", [...path, "$file"], `${name} nests ${depth} levels deep; data files may nest ${MAX_DATA_DEPTH} levels`);
    return null;
  }
  return parsed.value;
}

/** How many levels of arrays and objects a value nests, counted without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [unknown, number];
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > MAX_DATA_DEPTH) return deepest;
    for (const item of Array.isArray(node) ? node : Object.values(node)) if (item !== null && typeof item === "object") pending.push([item, depth + 1]);
  }
  return deepest;
}

function parseJson(text: string): { value: unknown } | { offset: number; message: string } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    const offset = jsonErrorOffset(text);
    // Valid JSON that JSON.parse still refuses nests deeper than its stack.
    if (offset === undefined) return { offset: 0, message: `it nests deeper than ${MAX_DATA_DEPTH} levels` };
    return { offset, message: offset >= text.length ? "it ends too soon" : "unexpected character" };
  }
}

/** JSON Lines: one value a line; blank lines are skipped. */
function parseJsonLines(text: string): { value: unknown[] } | { offset: number; message: string } {
  const values: unknown[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    if (line.trim() !== "") {
      try {
        values.push(JSON.parse(line));
      } catch {
        const offset = jsonErrorOffset(line) ?? 0;
        return { offset: start + offset, message: offset >= line.trimEnd().length ? "the line ends too soon" : "unexpected character" };
      }
    }
    start = end + 1;
  }
  return { value: values };
}

/** 1-based line and column of an offset, counted without keeping the file's lines. */
function positionIn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
