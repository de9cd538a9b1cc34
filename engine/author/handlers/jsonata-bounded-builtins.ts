import type jsonata from "jsonata";
import { registerBoundedFormats } from "./jsonata-bounded-formats.js";
import { registerBoundedValues } from "./jsonata-bounded-values.js";
import { RunStop } from "./jsonata-guard.js";
import { jsonataBuiltins as builtins } from "./jsonata-originals.js";

/**
 * Built-ins that do a lot in a single call, out of the evaluation hook's sight (it runs between
 * expressions). `$pad("", 1e9)` allocates a billion-slot array and kills the process on the spot
 * (a V8 fatal error, not an exception); `$join` of many long strings builds one string up to
 * V8's limit (about 512 MB); jsonata 2.2.2's `$sort` merges by slicing, so its memory grows with
 * the square of the array (100,000 numbers filled a 4 GB heap in 25 s, never reaching the hook).
 * These replacements refuse before building, or sort in linear memory, and otherwise hand over
 * to jsonata's own implementation. Audited in jsonata 2.2.2's source: every other built-in is
 * linear in its arguments, which the size caps bound, or builds through jsonata's capped
 * sequences (`$match`, paths, `$map`), except those bounded in jsonata-bounded-values.ts and
 * jsonata-bounded-formats.ts.
 */

function tooLarge(what: string): RunStop {
  return new RunStop("too-large", what);
}

/**
 * Registers the bounded built-ins on a compiled expression (`$pad`, `$join` and `$sort` here; the
 * value walkers and the picture formatters beside), with jsonata's signatures so they are called
 * exactly as the originals are (`"x" ~> $pad(3)` included).
 *
 * @example registerBoundedBuiltins(jsonata("$pad($args.name, 20)"), 10_000_000, 100_000);
 */
export function registerBoundedBuiltins(expression: jsonata.Expression, maxStringLength: number, maxSequence: number): void {
  registerBoundedValues(expression, maxSequence);
  registerBoundedFormats(expression);
  expression.registerFunction(
    "pad",
    async function (this: unknown, str: unknown, width: unknown, char: unknown) {
      // The padding is at most |width| characters, each at most as long as `char`.
      const unit = typeof char === "string" && char.length > 0 ? char.length : 1;
      const size = Math.abs(Math.trunc(Number(width)));
      if (typeof str === "string" && size * unit > maxStringLength) {
        throw tooLarge(`a string of ${size * unit} characters with $pad`);
      }
      return (await builtins()).pad.implementation.call(this, str, width, char);
    },
    "<s-ns?:s>",
  );
  expression.registerFunction(
    "join",
    async function (this: unknown, strs: unknown, separator: unknown) {
      if (Array.isArray(strs)) {
        let size = typeof separator === "string" ? separator.length * Math.max(0, strs.length - 1) : 0;
        for (const item of strs) size += typeof item === "string" ? item.length : 0;
        if (size > maxStringLength) throw tooLarge(`a string of ${size} characters with $join`);
      }
      return (await builtins()).join.implementation.call(this, strs, separator);
    },
    "<a<s>s?:s>",
  );
  expression.registerFunction(
    "sort",
    async function (this: unknown, items: unknown, comparator: unknown) {
      if (!Array.isArray(items) || items.length <= 1) return (await builtins()).sort.implementation.call(this, items, comparator);
      if (typeof comparator === "function") return mergeSort(items, comparator as (a: unknown, b: unknown) => unknown);
      const numbers = items.every((item) => typeof item === "number");
      if (!numbers && !items.every((item) => typeof item === "string")) {
        // jsonata's own refusal (D3070), raised before it sorts anything.
        return (await builtins()).sort.implementation.call(this, items, comparator);
      }
      // Stable, ascending: the order jsonata's merge sort gives with its default `a > b`.
      return [...items].sort((a, b) => ((a as number | string) > (b as number | string) ? 1 : (a as number | string) < (b as number | string) ? -1 : 0));
    },
    "<af?:a>",
  );
}

/**
 * jsonata's merge sort (the same halves, the same calls of the comparator, so the same result
 * even for an inconsistent comparator), merging through one buffer instead of slicing. The
 * comparator is the user's function: `true` means "b goes first".
 */
async function mergeSort(items: readonly unknown[], swap: (a: unknown, b: unknown) => unknown): Promise<unknown[]> {
  const sorted = [...items];
  const buffer = new Array<unknown>(sorted.length);
  const sortRange = async (lo: number, hi: number): Promise<void> => {
    if (hi - lo <= 1) return;
    const mid = lo + Math.floor((hi - lo) / 2);
    await sortRange(lo, mid);
    await sortRange(mid, hi);
    let left = lo;
    let right = mid;
    let out = lo;
    while (left < mid && right < hi) {
      buffer[out++] = (await swap(sorted[left], sorted[right])) ? sorted[right++] : sorted[left++];
    }
    while (left < mid) buffer[out++] = sorted[left++];
    while (right < hi) buffer[out++] = sorted[right++];
    for (let i = lo; i < hi; i++) sorted[i] = buffer[i];
  };
  await sortRange(0, sorted.length);
  return sorted;
}
