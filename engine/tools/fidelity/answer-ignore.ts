/**
 * What replay leaves out of a comparison, for answers that can never match byte for byte
 * (generated ids, timestamps): JSON paths into an answer (`$.createdAt`, `$.entities[*].id`),
 * regular expressions (`/task-[0-9]+/`) and named shapes (`uuid`, `iso-date`). Each part left
 * out becomes `‹ignored›` on both sides before they are compared, so the diff output shows where
 * it was, never drops it unseen. Patterns run on RE2 (linear in the answer).
 */
import { createRequire } from "node:module";
import type { CallAnswer } from "./call-answer.js";

/** What an ignored part is replaced with, on both sides. */
export const IGNORED = "‹ignored›";

type Segment = string | number | "*";
type Replacer = { [Symbol.replace](text: string, by: string): string };

/** One thing to leave out: a path into the answer's JSON, or a pattern over its text. */
export type AnswerIgnore = { spec: string; path: Segment[] } | { spec: string; pattern: Replacer };

/** Named shapes, for the ids and dates real servers generate. */
export const IGNORE_SHAPES: Readonly<Record<string, string>> = {
  uuid: "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
  "iso-date": "\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?",
};

type RE2Class = new (pattern: string, flags: string) => Replacer;
let RE2: RE2Class | undefined;
const re2 = () => (RE2 ??= (createRequire(import.meta.url)("re2-wasm") as { RE2: RE2Class }).RE2);

/** `$.a.b[0].c`, `$.items[*].id`, `$["odd key"]` → segments; undefined when it is not such a path. */
function pathSegments(spec: string): Segment[] | undefined {
  if (!spec.startsWith("$")) return undefined;
  const segments: Segment[] = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+|\*)\]|\["((?:[^"\\]|\\.)*)"\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < spec.length) {
    const at = re.lastIndex;
    const m = re.exec(spec);
    if (!m || m.index !== at) return undefined;
    segments.push(m[1] ?? (m[2] === "*" ? "*" : m[2] !== undefined ? Number(m[2]) : JSON.parse(`"${m[3]}"`)));
  }
  return segments;
}

/**
 * Reads one `--ignore` (or a calls file's `ignore:` entry): a JSON path from `$`, `/regex/flags`,
 * or a shape's name. Throws naming what it takes otherwise.
 *
 * @example parseIgnore("$.entities[*].createdAt"); parseIgnore("uuid"); parseIgnore("/task-\\d+/");
 */
export function parseIgnore(spec: string): AnswerIgnore {
  const path = pathSegments(spec);
  if (path) return { spec, path };
  const shape = IGNORE_SHAPES[spec];
  const regex = /^\/(.+)\/([imsu]*)$/s.exec(spec);
  if (shape === undefined && !regex)
    throw new Error(
      `[eval-simulate] cannot ignore ${JSON.stringify(spec)}: give a JSON path ($.field, $.list[*].id), a /regular expression/, or a shape (${Object.keys(IGNORE_SHAPES).join(", ")})`,
    );
  const [source, flags] = shape === undefined ? [regex![1], regex![2]] : [shape, ""];
  try {
    return { spec, pattern: new (re2())(source, `g${flags.includes("u") ? flags : `${flags}u`}`) };
  } catch (error) {
    throw new Error(`[eval-simulate] cannot ignore ${spec}: ${(error as Error).message} (patterns run on RE2: no lookaround, no backreferences)`);
  }
}

/** A copy of `value` with what `path` reaches set to IGNORED, counting the parts. */
function maskPath(value: unknown, path: readonly Segment[], count: { n: number }): unknown {
  if (path.length === 0) {
    count.n++;
    return IGNORED;
  }
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    if (head === "*") return value.map((item) => maskPath(item, rest, count));
    if (typeof head === "number" && head < value.length) return value.map((item, i) => (i === head ? maskPath(item, rest, count) : item));
    return value;
  }
  if (typeof value === "object" && value !== null) {
    const keys = head === "*" ? Object.keys(value) : typeof head === "string" && Object.hasOwn(value, head) ? [head] : [];
    if (keys.length === 0) return value;
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key of keys) copy[key] = maskPath(copy[key], rest, count);
    return copy;
  }
  return value;
}

/** Every string in a JSON value with the patterns' matches masked. */
function maskStrings(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === "string") return mask(value);
  if (Array.isArray(value)) return value.map((item) => maskStrings(item, mask));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskStrings(v, mask)]));
  return value;
}

/**
 * The answer with the ignored parts replaced by `‹ignored›`, and what was left out of it
 * (`$.createdAt ×2`, `uuid ×3`). JSON paths apply to structured content and to a text block
 * holding JSON (written back with the block's own indentation); patterns to every text.
 *
 * @example const { answer, ignored } = maskAnswer(real, [parseIgnore("uuid")]);
 */
export function maskAnswer(answer: CallAnswer, ignores: readonly AnswerIgnore[]): { answer: CallAnswer; ignored: string[] } {
  if (ignores.length === 0) return { answer, ignored: [] };
  const counts = new Map<string, number>();
  const add = (spec: string, n: number) => n > 0 && counts.set(spec, (counts.get(spec) ?? 0) + n);
  const mask = (text: string) => {
    let out = text;
    for (const ignore of ignores) {
      if (!("pattern" in ignore)) continue;
      const before = out.split(IGNORED).length;
      out = ignore.pattern[Symbol.replace](out, IGNORED);
      add(ignore.spec, out.split(IGNORED).length - before);
    }
    return out;
  };
  /** The value with every path masked, and how many parts were. */
  const paths = (value: unknown) => {
    let out = value;
    let total = 0;
    for (const ignore of ignores) {
      if (!("path" in ignore)) continue;
      const count = { n: 0 };
      out = maskPath(out, ignore.path, count);
      add(ignore.spec, count.n);
      total += count.n;
    }
    return { value: out, total };
  };
  if (answer.error) return { answer: { error: { ...answer.error, message: mask(answer.error.message) } }, ignored: shown(counts) };
  const result = answer.result!;
  const content = result.content.map((block) => {
    if (block.type !== "text" || typeof block.text !== "string") return maskStrings(block, mask) as Record<string, unknown>;
    let text = block.text;
    if (ignores.some((i) => "path" in i)) {
      try {
        const masked = paths(JSON.parse(text));
        // Written back only when a path reached into it, so its formatting is still compared otherwise.
        if (masked.total > 0) text = JSON.stringify(masked.value, null, /^[[{]\n( +)/.exec(text)?.[1].length);
      } catch {
        // Not JSON: only the patterns apply to it.
      }
    }
    return { ...block, text: mask(text) };
  });
  const structured = result.structuredContent === undefined ? undefined : maskStrings(paths(result.structuredContent).value, mask);
  return { answer: { result: { ...result, content, ...(structured !== undefined && { structuredContent: structured }) } }, ignored: shown(counts) };
}

const shown = (counts: Map<string, number>) => [...counts].map(([spec, n]) => (n === 1 ? spec : `${spec} ×${n}`));
