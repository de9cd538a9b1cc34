/**
 * The regular expression engine every compiled JSON Schema uses for `pattern` and
 * `patternProperties` (ajv's `code.regExp`): RE2, which runs in time linear in the input.
 * JavaScript's engine backtracks: a captured schema's `"pattern": "^(a+)+$"` against 30 a's and a
 * "!" runs for minutes inside one synchronous call that no timer can interrupt, holding every
 * fake on the port (or a `validate` in CI). re2-wasm is pure WebAssembly: no native build.
 *
 * RE2 cannot run backreferences or lookaround. Such a pattern runs on JavaScript's engine (a
 * note the manifest checks turn into the warning W_PATTERN_FALLBACK), unless it also repeats a
 * repeated group (`(a+)+`), the classic shape of catastrophic backtracking: then it is refused.
 */
import { createRequire } from "node:module";
import { nestedRepetition } from "../handlers/index.js";

/** What a regular expression engine gives ajv (and the judge). */
export interface RegExpLike {
  test(input: string): boolean;
}

/** A pattern that runs on JavaScript's backtracking engine, and why RE2 could not take it. */
export interface PatternNote {
  pattern: string;
  reason: string;
}

type RE2Class = new (pattern: string, flags: string) => RegExpLike;
let RE2: RE2Class | undefined;
/** Loaded on first use: the wasm module costs ~30 ms, which a manifest without patterns never pays. */
function re2(): RE2Class {
  return (RE2 ??= (createRequire(import.meta.url)("re2-wasm") as { RE2: RE2Class }).RE2);
}

/**
 * RE2 objects live in wasm memory, which JavaScript's garbage collector never frees: one per
 * distinct pattern, kept for the process (bounded; past the bound, new ones are not kept).
 */
const compiled = new Map<string, RegExpLike | { fallback: string }>();
const MAX_KEPT = 10_000;

/** The notes of the compile under way (ajv calls the engine synchronously while compiling). */
let noting: PatternNote[] | undefined;

/**
 * Runs `compile` and returns the patterns it compiled that fell back to JavaScript's engine.
 *
 * @example const { result, notes } = notePatterns(() => ajv.compile(schema));
 */
export function notePatterns<T>(compile: () => T): { result: T; notes: PatternNote[] } {
  const outer = noting;
  const notes: PatternNote[] = [];
  noting = notes;
  try {
    return { result: compile(), notes };
  } finally {
    noting = outer;
    outer?.push(...notes);
  }
}

/**
 * Says again, to whoever is noting, the notes of a schema compiled earlier (a cached one).
 *
 * @example return replayPatternNotes(cachedSchema);
 */
export function replayPatternNotes<T extends { patternNotes: readonly PatternNote[] }>(compiled: T): T {
  noting?.push(...compiled.patternNotes);
  return compiled;
}

function whyNotRe2(source: string, error: unknown): string {
  if (/\\[1-9]|\\k</.test(source)) return "a backreference";
  if (/\(\?<?[=!]/.test(source)) return "lookaround";
  const message = error instanceof Error ? error.message : String(error);
  const detail = message.slice(message.lastIndexOf("/") + 1).replace(/^[a-z]*:\s*/, "");
  return `something RE2 does not support (${detail.slice(0, 120)})`;
}

/**
 * A compiled pattern: RE2 when it can run it, else JavaScript's RegExp (noted), else an error
 * for a pattern that is not a valid JavaScript regular expression or would backtrack without
 * bound. A pattern means what it means in JavaScript (checked with `new RegExp` first), so RE2's
 * own extensions (`(?i)`, `\z`) are refused as JavaScript refuses them.
 *
 * @example linearPattern("^[a-z]+$", "u").test("abc") // true, in linear time
 */
export function linearPattern(source: string, flags: string): RegExpLike {
  const key = `${flags}/${source}`;
  let found = compiled.get(key);
  if (found === undefined) {
    const native = new RegExp(source, flags);
    try {
      found = new (re2())(source, flags.includes("u") ? flags : `${flags}u`);
    } catch (error) {
      const reason = whyNotRe2(source, error);
      const nested = nestedRepetition(source);
      if (nested) {
        throw new Error(
          `the pattern ${JSON.stringify(source.slice(0, 200))} needs JavaScript's backtracking engine (it uses ${reason}) and repeats a repeated group (${nested}), which can run for minutes on one string: rewrite it without the nested repetition`,
        );
      }
      found = { fallback: reason };
      if (compiled.size < MAX_KEPT) compiled.set(key, found);
      noting?.push({ pattern: source, reason });
      return native;
    }
    if (compiled.size < MAX_KEPT) compiled.set(key, found);
  }
  if ("fallback" in found) {
    noting?.push({ pattern: source, reason: found.fallback });
    return new RegExp(source, flags);
  }
  return found;
}

const judged = new Map<string, RegExpLike | Error>();

/** An unpaired surrogate: in u mode a paired one is part of its code point, not matched here. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The text with U+FFFD for each unpaired surrogate. RE2's wasm build misreads a text holding one
 * (`won` is not found in "\ud800won", yet is in "x\ud800 won"); with U+FFFD there it finds what
 * JavaScript's engine finds, so a plain-text pattern and a regex agree on an agent's text.
 */
function wellFormed(input: string): string {
  return LONE_SURROGATE.test(input) ? (input as string & { toWellFormed(): string }).toWellFormed() : input;
}

/** A pattern of ASCII characters with no meaning in a regular expression: it matches itself. */
const PLAIN_TEXT = /^[A-Za-z0-9 _,:;'"!@#%&=~`<>/-]*$/;
/**
 * The longest plain text JavaScript's engine is given. It tries the text at each position of
 * the answer, so its time grows with the text's length too, and past ~10,000 characters with
 * `iu` it cannot compile it at all (a stack overflow): longer text goes to RE2 like any pattern.
 */
const MAX_PLAIN_TEXT = 256;

/**
 * A pattern on RE2 only, with no fallback: what the judge runs `$pattern` and `answer.pattern`
 * on, since an agent writes the text they are tried against. Returns the error that says why
 * for a pattern JavaScript refuses (its meaning is JavaScript's) or RE2 cannot run (lookaround,
 * backreferences, the `v` flag). `g`, `y` and `d` change nothing a test reads: each test starts
 * at the text's start.
 *
 * @example re2Only("^(.|\\s)*won$", "i").test(" ".repeat(10_000)) // false, at once
 */
export function re2Only(source: string, flags: string): RegExpLike | Error {
  const key = `${flags}/${source}`;
  let found = judged.get(key);
  if (found === undefined) {
    found = compileRe2Only(source, flags);
    if (judged.size < MAX_KEPT) judged.set(key, found);
  }
  return found;
}

function compileRe2Only(source: string, flags: string): RegExpLike | Error {
  try {
    new RegExp(source, flags);
  } catch (error) {
    return error as Error;
  }
  const shown = `/${source.slice(0, 200)}/${flags}`;
  if (flags.includes("v")) return new Error(`the pattern ${shown} uses the v flag, which RE2, the judge's linear-time engine, cannot run: use u`);
  const kept = [...new Set(flags.replace(/[gyd]/g, ""))].join("");
  const unicode = kept.includes("u") ? kept : `${kept}u`;
  // Plain text (`won`, `refund issued`) needs no regex engine's features: JavaScript's finds it
  // in time linear in the text, as RE2 would, and matches what RE2 matches (ASCII only, so the
  // two agree on every case fold; no `.`, class or anchor, where their line breaks differ).
  if (source.length <= MAX_PLAIN_TEXT && PLAIN_TEXT.test(source)) return new RegExp(source, unicode);
  try {
    const regex = new (re2())(source, unicode);
    return { test: (input: string) => regex.test(wellFormed(input)) };
  } catch (error) {
    return new Error(`the pattern ${shown} uses ${whyNotRe2(source, error)}, which RE2, the judge's linear-time engine, cannot run`);
  }
}

/** ajv's `code.regExp`: the engine, and the name standalone code would call it by. */
export const linearRegExp = Object.assign((source: string, flags: string) => linearPattern(source, flags), { code: "linearPattern" });
