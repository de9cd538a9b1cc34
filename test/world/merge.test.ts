import { describe, expect, it } from "vitest";
import { deepCopy, deepMerge } from "../../engine/author/world/index.js";
import { sharedObjects } from "./shared-objects.js";

describe("deepMerge", () => {
  it("merges objects key by key, at every depth", () => {
    expect(deepMerge({ a: { x: 1, deep: { p: 1 } }, b: 1 }, { a: { y: 2, deep: { q: 2 } }, c: 3 })).toEqual({
      a: { x: 1, y: 2, deep: { p: 1, q: 2 } },
      b: 1,
      c: 3,
    });
  });

  it("replaces arrays and scalars instead of merging them", () => {
    expect(deepMerge({ list: [1, 2, 3], n: 1, o: { k: 1 } }, { list: [9], n: "two", o: [1] })).toEqual({ list: [9], n: "two", o: [1] });
    expect(deepMerge([1, 2], [3])).toEqual([3]);
  });

  it("keeps the base where over is undefined, and lets null replace", () => {
    expect(deepMerge({ a: 1, b: 2 }, { a: undefined, b: null })).toEqual({ a: 1, b: null });
    expect(deepMerge({ a: 1 }, undefined)).toEqual({ a: 1 });
  });

  it("shares no object with either input", () => {
    const base = { keep: { list: [{ x: 1 }] }, both: { inner: { y: 1 } } };
    const over = { both: { inner: { z: 2 }, added: [{ w: 3 }] } };
    const merged = deepMerge(base, over);
    expect(sharedObjects(merged, base)).toEqual([]);
    expect(sharedObjects(merged, over)).toEqual([]);
  });

  it("keeps a __proto__ key from YAML as data, never as a prototype", () => {
    const over = JSON.parse('{ "__proto__": { "polluted": true } }');
    const merged = deepMerge({}, over) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("deepCopy", () => {
  it("copies arrays, objects and Dates so nothing is shared", () => {
    const value = { a: [{ b: new Date(0) }], c: "s" };
    const copy = deepCopy(value);
    expect(copy).toEqual(value);
    expect(sharedObjects(copy, value)).toEqual([]);
  });
});
