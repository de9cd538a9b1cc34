import { describe, expect, it } from "vitest";
import { decodeToon, encodeAnswer, encodeToon } from "../../engine/author/contract/index.js";

describe("TOON answers write empty arrays in the length form", () => {
  it("at the root", () => {
    expect(encodeToon([])).toBe("[0]:");
  });

  it("under a key", () => {
    expect(encodeToon({ notes: [] })).toBe("notes[0]:");
    expect(encodeAnswer({ format: "toon" }, { notes: [], total: 0 })).toBe("notes[0]:\ntotal: 0");
  });

  it("in a nested object", () => {
    expect(encodeToon({ page: { items: [], next: null } })).toBe("page:\n  items[0]:\n  next: null");
  });

  it("in list items, first key or later", () => {
    const value = { items: [{ tags: [], x: 1 }, { x: 2, tags: [] }, 3] };
    expect(encodeToon(value)).toBe("items[3]:\n  - tags[0]:\n    x: 1\n  - x: 2\n    tags[0]:\n  - 3");
  });

  it("in an object nested inside a list item", () => {
    expect(encodeToon({ items: [{ o: { p: [] } }] })).toBe("items[1]:\n  - o:\n      p[0]:");
  });

  it("as list items of an array of arrays (already so in the library)", () => {
    expect(encodeToon({ m: [[], [1]] })).toBe("m[2]:\n  - [0]:\n  - [1]: 1");
  });

  it("under quoted keys, escapes and all", () => {
    expect(encodeToon({ "a b": [], 'say "hi": []': [] })).toBe('"a b"[0]:\n"say \\"hi\\": []"[0]:');
  });

  it("and leaves strings that look like empty arrays alone", () => {
    const value = { s: "[]", t: "key: []", u: ["[]"] };
    const text = encodeToon(value);
    expect(text).toBe('s: "[]"\nt: "key: []"\nu[1]: "[]"');
    expect(decodeToon(text)).toEqual({ ok: true, value });
  });

  it("decodes back to the same values", () => {
    const values = [
      [],
      { notes: [] },
      { page: { items: [] } },
      {
        items: [
          { tags: [], x: 1 },
          { x: 2, tags: [] },
        ],
      },
      { "a b": [] },
    ];
    for (const value of values) expect(decodeToon(encodeToon(value))).toEqual({ ok: true, value });
  });
});
