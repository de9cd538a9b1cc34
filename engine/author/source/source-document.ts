import { createRequire } from "node:module";
import type { LineCounter, Node, Pair, Scalar, YAMLMap } from "yaml";

// CommonJS through require: an ESM import of it makes node scan it, and every file it requires,
// for named exports (cjs-module-lexer), a measurable share of each start (docs/performance.md).
// Required on the first parse: a manifest the cache gives back (its value and positions) may
// never need one, and yaml's 72 files cost ~20 ms of such a start.
let yamlModule: typeof import("yaml") | undefined;
const yaml = () => (yamlModule ??= createRequire(import.meta.url)("yaml") as typeof import("yaml"));
const isMap = (node: unknown): node is YAMLMap => yaml().isMap(node);
const isSeq = (node: unknown): node is import("yaml").YAMLSeq => yaml().isSeq(node);
const isPair = (node: unknown): node is Pair => yaml().isPair(node);
const isScalar = (node: unknown): node is Scalar => yaml().isScalar(node);

export type PathSegment = string | number;
export interface Position {
  line: number;
  column: number;
}

/** A YAML problem found while parsing, with its position. */
export interface ParseProblem {
  code: "E_YAML_SYNTAX" | "E_YAML_DUPLICATE_KEY";
  message: string;
  position: Position;
}

/**
 * What a parse of the same text gave before (the manifest cache): the value, and the positions
 * asked for then, by `positionKey`. A position not among them is found by parsing after all.
 */
export interface ParsedBefore {
  value: unknown;
  positions: Record<string, Position>;
}

/** A value's (`v`) or key's (`k`) position, or that of character N of a string value (`sN`). */
export type PositionKind = "v" | "k" | `s${number}`;

/** How a position at a path is known in `ParsedBefore.positions`. */
export function positionKey(kind: PositionKind, path: readonly PathSegment[]): string {
  return `${kind}${JSON.stringify(path)}`;
}

/**
 * A YAML (or JSON: YAML reads it) file parsed with its source positions, so every later stage
 * can point at the line and column of any value by its path. Given what a parse of the same
 * text gave before, it parses only if a position it was not given is asked for.
 */
export class SourceDocument {
  readonly value: unknown;
  readonly problems: ParseProblem[];
  /** Filled by the parse: where each line starts. */
  private lines: LineCounter | undefined;
  /** Big mappings (a world's records by id) are searched by key many times: once indexed, each search is one lookup. */
  private readonly pairIndex = new WeakMap<YAMLMap, Map<string, Pair>>();
  private parsed: ReturnType<typeof import("yaml").parseDocument> | undefined;
  /** The positions asked for, for the manifest cache to keep (bounded: past it, not kept). */
  private readonly asked = new Map<string, Position>();
  private readonly given: Record<string, Position> | undefined;

  constructor(
    readonly file: string,
    readonly text: string,
    before?: ParsedBefore,
  ) {
    if (before) {
      this.value = before.value;
      this.problems = [];
      this.given = before.positions;
      return;
    }
    this.problems = this.doc.errors.map((error) => ({
      code: "E_YAML_SYNTAX" as const,
      message: error.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, ""),
      position: this.positionAt(error.pos[0]),
    }));
    this.problems.push(...this.duplicateKeys());
    this.problems.sort((a, b) => a.position.line - b.position.line || a.position.column - b.position.column);
    // yaml still returns partial data beside errors; callers check `problems` first.
    this.value = this.problems.length === 0 ? this.resolve() : undefined;
  }

  /** The parsed document, parsed on first need when the value came from a parse before. */
  private get doc(): ReturnType<typeof import("yaml").parseDocument> {
    // `merge` reads `<<: *anchor` keys, which Recipes use to share a tool's settings. yaml's
    // own duplicate-key check compares every key with every other (a 100,000-key world did not
    // finish in minutes): duplicates are found below, with a Set per mapping.
    if (this.parsed) return this.parsed;
    const { LineCounter, parseDocument } = yaml();
    this.lines = new LineCounter();
    this.parsed = parseDocument(this.text, { lineCounter: this.lines, uniqueKeys: false, prettyErrors: false, merge: true });
    return this.parsed;
  }

  /** The positions asked for so far, by `positionKey`: what a later `ParsedBefore` can give. */
  positionsAsked(): Record<string, Position> {
    return Object.fromEntries(this.asked);
  }

  /** Every key that repeats one before it in the same mapping (merge keys `<<` may repeat). */
  private duplicateKeys(): ParseProblem[] {
    const found: ParseProblem[] = [];
    // Collections only, without recursion: scalars (most of a large world) are never visited.
    const pending: unknown[] = [this.doc.contents];
    while (pending.length > 0) {
      const node = pending.pop();
      if (isSeq(node)) {
        for (const item of node.items) if (isMap(item) || isSeq(item)) pending.push(item);
        continue;
      }
      if (!isMap(node)) continue;
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (isMap(pair.value) || isSeq(pair.value)) pending.push(pair.value);
        // A complex key (a mapping or a sequence as a key) is equal only to itself, as in yaml.
        if (!isScalar(pair.key)) {
          if (isMap(pair.key) || isSeq(pair.key)) pending.push(pair.key);
          continue;
        }
        const value = pair.key.value;
        if (value === "<<") continue;
        if (!seen.has(value)) {
          seen.add(value);
          continue;
        }
        const name = String(value);
        found.push({
          code: "E_YAML_DUPLICATE_KEY",
          message: `the key "${name.length > 100 ? `${name.slice(0, 100)}…` : name}" appears twice in the same map`,
          position: this.positionAt(pair.key.range?.[0] ?? 0),
        });
      }
    }
    return found;
  }

  /** The document as plain data; an alias that names no anchor, or too many aliases, is a problem. */
  private resolve(): unknown {
    try {
      return this.doc.toJS({ maxAliasCount: 1000 });
    } catch (error) {
      // Only now is the document walked for the alias that failed, so valid files pay nothing.
      yaml().visit(this.doc, {
        Alias: (_, alias) => {
          if (alias.resolve(this.doc) === undefined) {
            this.problems.push({
              code: "E_YAML_SYNTAX",
              message: `the alias *${alias.source} names no anchor (&${alias.source}) defined before it`,
              position: this.positionAt(alias.range?.[0] ?? 0),
            });
          }
        },
      });
      if (this.problems.length === 0) {
        this.problems.push({ code: "E_YAML_SYNTAX", message: (error as Error).message.split("\n")[0], position: { line: 1, column: 1 } });
      }
      return undefined;
    }
  }

  /** 1-based line and column of a character offset. */
  positionAt(offset: number): Position {
    // An offset comes from the parsed document's nodes or errors: parsing (once) fills the lines.
    void this.doc;
    const { line, col } = (this.lines as LineCounter).linePos(Math.max(0, Math.min(offset, this.text.length)));
    return { line, column: col };
  }

  /** The node at `path`, or the deepest ancestor that exists. */
  private nodeAt(path: readonly PathSegment[], want: "value" | "key"): Node | undefined {
    let node: unknown = this.doc.contents;
    let found: Node | undefined = node as Node | undefined;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i];
      if (isMap(node)) {
        const pair = this.pairOf(node, String(segment));
        if (!pair) return found;
        const last = i === path.length - 1;
        if (last && want === "key") return pair.key as Node;
        node = pair.value ?? pair.key;
      } else if (isSeq(node) && typeof segment === "number") {
        node = node.items[segment];
        if (node === undefined) return found;
      } else {
        return found;
      }
      found = node as Node;
    }
    return found;
  }

  /** A mapping's entry by key text, from an index built the first time the mapping is searched. */
  private pairOf(map: YAMLMap, key: string): Pair | undefined {
    let index = this.pairIndex.get(map);
    if (!index) {
      index = new Map();
      for (const item of map.items) if (isPair(item) && !index.has(keyText(item.key))) index.set(keyText(item.key), item as Pair);
      this.pairIndex.set(map, index);
    }
    return index.get(key);
  }

  /** Where the value at `path` starts (or its nearest existing ancestor). */
  positionOf(path: readonly PathSegment[]): Position {
    return this.remembered("v", path, () => this.positionAt(this.nodeAt(path, "value")?.range?.[0] ?? 0));
  }

  /** Where the key of the entry at `path` starts: unknown keys and ids point here. */
  keyPositionOf(path: readonly PathSegment[]): Position {
    return this.remembered("k", path, () => this.positionAt(this.nodeAt(path, "key")?.range?.[0] ?? 0));
  }

  /** A position as given by the parse before, or found now and kept for the next one. */
  private remembered(kind: PositionKind, path: readonly PathSegment[], find: () => Position): Position {
    const key = positionKey(kind, path);
    const given = this.given?.[key];
    if (given !== undefined && Object.hasOwn(this.given!, key)) return { line: given.line, column: given.column };
    let found = this.asked.get(key);
    if (found === undefined) {
      found = find();
      if (this.asked.size < MAX_KEPT_POSITIONS) this.asked.set(key, found);
    }
    return { ...found };
  }

  /**
   * Where a character of a string value is in the file: a JSONata error's offset inside an
   * expression becomes a line and column inside the YAML, through quotes, escapes and block
   * indentation.
   */
  positionInString(path: readonly PathSegment[], offset: number): Position {
    return this.remembered(`s${offset}`, path, () => {
      const node = this.nodeAt(path, "value");
      if (!node || !isScalar(node) || typeof node.value !== "string" || !node.range) return this.positionOf(path);
      return this.positionAt(sourceOffset(this.text, node as Scalar<string>, offset));
    });
  }
}

const MAX_KEPT_POSITIONS = 200_000;

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

const ESCAPE_LENGTH: Record<string, number> = { x: 4, u: 6, U: 10 };

/** Walks the scalar's source and its value side by side up to `offset` characters of the value. */
function sourceOffset(text: string, node: Scalar<string>, offset: number): number {
  const [start, end] = node.range as [number, number, number];
  const value = node.value;
  const target = Math.max(0, Math.min(offset, value.length));
  if (node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE") {
    const double = node.type === "QUOTE_DOUBLE";
    let j = start + 1;
    let i = 0;
    while (i < target && j < end) {
      const c = text[j];
      if (c === "\n" || c === "\r") {
        // A line break folds into one space, or into k-1 line breaks when k of them are in a row.
        const { next, breaks } = skipBreaks(text, j, end);
        j = next;
        i += breaks > 1 ? breaks - 1 : 1;
      } else if (double && c === "\\" && (text[j + 1] === "\n" || text[j + 1] === "\r")) {
        // An escaped line break joins the lines with nothing between them.
        j = skipBreaks(text, j + 1, end).next;
      } else if (double && c === "\\") {
        const length = ESCAPE_LENGTH[text[j + 1]] ?? 2;
        // A \U escape past the BMP is two UTF-16 units of the value.
        i += text[j + 1] === "U" && Number.parseInt(text.slice(j + 2, j + 10), 16) > 0xffff ? 2 : 1;
        j += length;
      } else {
        i++;
        j += !double && c === "'" ? 2 : 1;
      }
    }
    return j;
  }
  // Plain and block scalars: skip what the source has and the value lacks (block header,
  // indentation, folded line breaks) by matching characters in order.
  let j = start;
  if (node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") {
    j = text.indexOf("\n", start) + 1;
  }
  for (let i = 0; i < target && j < end; i++) {
    const c = value[i];
    if (/\s/.test(c)) {
      if (/\s/.test(text[j])) j++;
      continue;
    }
    while (j < end && text[j] !== c) j++;
    j++;
  }
  while (j < end && /[ \t]/.test(text[j]) && /\S/.test(value[target] ?? "")) {
    // Landed on indentation before the target character: move onto it.
    if (text[j] === value[target]) break;
    j++;
  }
  return j;
}

/** Skips a run of line breaks and the indentation after them; counts the breaks. */
function skipBreaks(text: string, at: number, end: number): { next: number; breaks: number } {
  let j = at;
  let breaks = 0;
  while (j < end) {
    if (text[j] === "\r" && text[j + 1] === "\n") j++;
    if (text[j] !== "\n" && text[j] !== "\r") break;
    breaks++;
    j++;
    while (j < end && (text[j] === " " || text[j] === "\t")) j++;
  }
  return { next: j, breaks };
}
