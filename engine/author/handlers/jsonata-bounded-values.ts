import type jsonata from "jsonata";
import { RunStop } from "./jsonata-guard.js";
import { jsonataBuiltins } from "./jsonata-originals.js";
import { MAX_WALK, equalityKey, treeSize } from "./jsonata-value-size.js";

/**
 * Built-ins that walk a whole value in one synchronous step. A value may share its parts, so
 * one built in a few steps can stand for a billion nodes (`$b := [1..1000].{ "x": $a }` holds
 * `$a` a thousand times): `$string` and `$clone` write every node out, `$boolean`, `$not` and `$lookup` visit every item
 * of nested arrays, and jsonata 2.2.2's
 * `$distinct` compares every item with every kept one (quadratic: 20,000 objects ran for over
 * 30 s). These count first, or key in linear time, and refuse past MAX_WALK nodes. `$split`
 * builds its whole array before the size cap sees it, so it is told to stop one past the cap.
 */

/** The text a `$distinct` key may hold in all: far beyond any real list, well within the heap. */
const MAX_KEY_CHARS = 50_000_000;

function tooLargeToWalk(what: string): RunStop {
  return new RunStop(
    "too-large",
    `a value of more than ${MAX_WALK} nodes`,
    `gave ${what} a value of more than ${MAX_WALK} nodes (shared parts count each time they are reached)`,
  );
}

function checkWalkable(value: unknown, what: string, arraysOnly = false): void {
  if (typeof value === "object" && value !== null && treeSize(value, MAX_WALK, arraysOnly) === undefined) throw tooLargeToWalk(what);
}

/**
 * Registers the bounded `$string`, `$clone`, `$distinct`, `$boolean`, `$not`, `$lookup` and
 * `$split` on a compiled expression.
 *
 * @example registerBoundedValues(jsonata("$string($state)"), 100_000);
 */
export function registerBoundedValues(expression: jsonata.Expression, maxSequence: number): void {
  expression.registerFunction(
    "string",
    async function (this: unknown, value: unknown, prettify: unknown) {
      checkWalkable(value, "$string");
      return (await jsonataBuiltins()).string.implementation.call(this, value, prettify);
    },
    "<x-b?:s>",
  );
  expression.registerFunction(
    "clone",
    async function (this: unknown, value: unknown) {
      checkWalkable(value, "$clone");
      return (await jsonataBuiltins()).clone.implementation.call(this, value);
    },
    "<(oa)-:o>",
  );
  expression.registerFunction(
    "distinct",
    async function (this: unknown, items: unknown) {
      if (!Array.isArray(items) || items.length <= 1) return (await jsonataBuiltins()).distinct.implementation.call(this, items);
      if (treeSize(items) === undefined) throw tooLargeToWalk("$distinct");
      // jsonata keeps the first of each group of deeply equal items, in order; keys find them in one pass.
      const seen = new Set<string>();
      const identities = new Map<object, number>();
      const budget = { chars: MAX_KEY_CHARS };
      // As jsonata does: a sequence in, a sequence out (a one-item result then reads as the item).
      const focus = this as { createSequence?: () => unknown[] };
      const kept: unknown[] = (items as { sequence?: boolean }).sequence && focus.createSequence ? focus.createSequence() : [];
      for (const item of items) {
        const key = equalityKey(item, identities, budget);
        if (key === undefined)
          throw new RunStop(
            "too-large",
            `values of more than ${MAX_KEY_CHARS} characters`,
            `gave $distinct values too large to compare (more than ${MAX_KEY_CHARS} characters written out)`,
          );
        if (seen.has(key)) continue;
        seen.add(key);
        kept.push(item);
      }
      return kept;
    },
    "<x:x>",
  );
  // jsonata's `$boolean` (and `$not`) read every item of nested arrays; `$lookup` flattens them.
  for (const [name, signature] of [
    ["boolean", "<x-:b>"],
    ["not", "<x-:b>"],
    ["lookup", "<x-s:x>"],
  ] as const) {
    expression.registerFunction(
      name,
      async function (this: unknown, value: unknown, key: unknown) {
        // They look into nested arrays only, never inside objects: so does the count.
        if (Array.isArray(value)) checkWalkable(value, `$${name}`, true);
        return (await jsonataBuiltins())[name].implementation.call(this, value, key);
      },
      signature,
    );
  }
  expression.registerFunction(
    "split",
    async function (this: unknown, str: unknown, separator: unknown, limit: unknown) {
      // At most one item past the cap is built; the size cap then ends the run as before.
      const capped = limit === undefined ? maxSequence + 1 : typeof limit === "number" ? Math.min(limit, maxSequence + 1) : limit;
      return (await jsonataBuiltins()).split.implementation.call(this, str, separator, capped);
    },
    "<s-(sf)n?:a<s>>",
  );
}
