import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { re2Only } from "../../engine/author/contract/index.js";

/** RE2 itself, as the judge runs any other pattern. */
const { RE2 } = createRequire(import.meta.url)("re2-wasm") as { RE2: new (source: string, flags: string) => { test(input: string): boolean } };

/** A small deterministic generator, so a failure names a case that comes back. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

// Letters whose case folds reach outside ASCII (K: the Kelvin sign, s: the long s), line breaks
// RE2 and JavaScript read apart, and text on either side of them.
const ALPHABET = ["a", "k", "K", "s", "S", "w", "o", "n", "N", " ", "-", "'", "\u212a", "\u017f", "\n", "\r", "\u2028", "é", "É", "\u{1f600}"];
const PATTERN_CHARS = ["a", "k", "K", "s", "S", "w", "o", "n", "N", " ", "-", "'", "/", ":", "0"];

describe("answer patterns of plain text", () => {
  it("match exactly what RE2 matches, with and without the i flag, on 300 generated patterns × 20 texts", () => {
    const random = generator(24);
    const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)]!;
    for (let n = 0; n < 300; n++) {
      const pattern = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(PATTERN_CHARS)).join("");
      const texts = Array.from({ length: 20 }, () => Array.from({ length: Math.floor(random() * 12) }, () => pick(ALPHABET)).join(""));
      for (const [flags, re2Flags] of [
        ["", "u"],
        ["i", "iu"],
        ["gis", "isu"],
      ]) {
        const judged = re2Only(pattern, flags!);
        if (judged instanceof Error) throw judged;
        // One RE2 object a pattern and flags: wasm memory is never given back.
        const re2 = new RE2(pattern, re2Flags!);
        for (const text of texts) expect({ pattern, flags, text, matched: judged.test(text) }).toEqual({ pattern, flags, text, matched: re2.test(text) });
      }
    }
  });

  it("gives a plain text too long for JavaScript's engine to compile with iu (20,000 characters) to RE2, not a thrown stack overflow", () => {
    const judged = re2Only(`${"a".repeat(20_000)}b`, "i");
    if (judged instanceof Error) throw judged;
    expect(judged.test("AB")).toBe(false);
  });

  it("still refuses on RE2 what RE2 cannot run, and finds a pattern's own meaning there", () => {
    expect(re2Only("(?<=a)b", "")).toBeInstanceOf(Error);
    expect((re2Only("^w.n$", "") as { test(s: string): boolean }).test("w\u2028n")).toBe(new RE2("^w.n$", "u").test("w\u2028n"));
  });

  it("agree with a regex of the same meaning on text holding an unpaired surrogate, which RE2's wasm build misreads", () => {
    for (const text of ["\ud800won", "\udc00won\ud800", "a\ud800won", "\ud83d\ude00won"]) {
      const plain = re2Only("won", "") as { test(s: string): boolean };
      const regex = re2Only("wo[n]", "") as { test(s: string): boolean };
      expect({ text, plain: plain.test(text), regex: regex.test(text) }).toEqual({ text, plain: true, regex: true });
    }
    expect((re2Only("^w.n$", "") as { test(s: string): boolean }).test("w\ud800n")).toBe(/^w.n$/u.test("w\ud800n"));
  });
});
