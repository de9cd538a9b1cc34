import type jsonata from "jsonata";
import { RunStop } from "./jsonata-guard.js";
import { jsonataBuiltins } from "./jsonata-originals.js";

/**
 * The formatting built-ins take a picture string whose size sets how much they build, in one
 * synchronous step. In jsonata 2.2.2 a date/time width modifier pads to any width with a
 * billion-slot array (`$fromMillis(0, "[Y,400000000]")` filled the heap), and grouping separators
 * are inserted one copy of the whole string at a time (`$formatNumber` with a 100,000-character
 * picture ran past 30 s; 10,000 characters took half a second). Real pictures are a few dozen
 * characters: longer ones, and widths past MAX_PICTURE_WIDTH, are refused before formatting.
 */

/** The longest picture string `$formatNumber`, `$formatInteger`, `$fromMillis` and `$toMillis` take. */
export const MAX_PICTURE_LENGTH = 1000;
/** The widest a date/time component may be padded (`[Y,1000]`). */
export const MAX_PICTURE_WIDTH = 1000;

function checkPicture(picture: unknown, fn: string, dateTime: boolean): void {
  if (typeof picture !== "string") return;
  if (picture.length > MAX_PICTURE_LENGTH) {
    throw new RunStop(
      "too-large",
      `a picture of ${picture.length} characters`,
      `gave ${fn} a picture of ${picture.length} characters, past its limit of ${MAX_PICTURE_LENGTH}`,
    );
  }
  if (!dateTime) return;
  // Width modifiers: the digits after the last comma inside a [marker], as `min` or `min-max`.
  for (const marker of picture.matchAll(/\[([^\]]*)\]/g)) {
    const comma = marker[1]!.lastIndexOf(",");
    if (comma === -1) continue;
    for (const width of marker[1]!.slice(comma + 1).split("-")) {
      const n = Number.parseInt(width.replace(/\s+/g, ""), 10);
      if (n > MAX_PICTURE_WIDTH) {
        throw new RunStop("too-large", `a width of ${n}`, `gave ${fn} a picture whose width ${n} is past its limit of ${MAX_PICTURE_WIDTH}`);
      }
    }
  }
}

/**
 * Registers the bounded `$formatNumber`, `$formatInteger`, `$fromMillis` and `$toMillis`.
 *
 * @example registerBoundedFormats(jsonata('$formatNumber($args.amount, "#,##0.00")'));
 */
export function registerBoundedFormats(expression: jsonata.Expression): void {
  expression.registerFunction(
    "formatNumber",
    async function (this: unknown, value: unknown, picture: unknown, options: unknown) {
      checkPicture(picture, "$formatNumber", false);
      return (await jsonataBuiltins()).formatNumber.implementation.call(this, value, picture, options);
    },
    "<n-so?:s>",
  );
  expression.registerFunction(
    "formatInteger",
    async function (this: unknown, value: unknown, picture: unknown) {
      checkPicture(picture, "$formatInteger", false);
      return (await jsonataBuiltins()).formatInteger.implementation.call(this, value, picture);
    },
    "<n-s:s>",
  );
  expression.registerFunction(
    "fromMillis",
    async function (this: unknown, millis: unknown, picture: unknown, timezone: unknown) {
      checkPicture(picture, "$fromMillis", true);
      return (await jsonataBuiltins()).fromMillis.implementation.call(this, millis, picture, timezone);
    },
    "<n-s?s?:s>",
  );
  expression.registerFunction(
    "toMillis",
    async function (this: unknown, timestamp: unknown, picture: unknown) {
      checkPicture(picture, "$toMillis", true);
      return (await jsonataBuiltins()).toMillis.implementation.call(this, timestamp, picture);
    },
    "<s-s?:n>",
  );
}
