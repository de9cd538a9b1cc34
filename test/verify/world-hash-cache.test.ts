import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../engine/core/record/changed-entities.js";
import { fakeHash, valueHash, worldHash } from "../../engine/core/record/index.js";
import { deepFreeze } from "../../engine/serve/runtime/deep-freeze.js";

/** The hash as defined, with nothing kept: sha256 of the canonical JSON. */
const uncached = (value: unknown) =>
  createHash("sha256")
    .update(canonicalJson(value) ?? "null")
    .digest("hex");

/** A small deterministic random source, so a failure names a seed that reproduces it. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const KEYS = ["id", "b", "a", "__proto__", "é", 'q"uote', "10", "2", "z"];

/** A random JSON-ish value: nested objects and arrays, odd keys, undefined inside objects and arrays, -0. */
function value(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth <= 0 || pick < 0.35) {
    const leaves = [0, -0, 1.5, 1e21, -7, "", "text", "ünïcode\n", true, false, null, undefined];
    return leaves[Math.floor(next() * leaves.length)];
  }
  if (pick < 0.65) return Array.from({ length: Math.floor(next() * 5) }, () => value(next, depth - 1));
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--)
    Object.defineProperty(object, KEYS[Math.floor(next() * KEYS.length)], {
      value: value(next, depth - 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return object;
}

/** An entity of records keyed by id, frozen as committed state is. */
function records(next: () => number, count: number): Record<string, unknown> {
  return deepFreeze(Object.fromEntries(Array.from({ length: count }, (_, i) => [`r-${i}`, { id: `r-${i}`, data: value(next, 3) }])));
}

describe("world hashes kept per frozen value", () => {
  it("equal the hash computed afresh for many random values, frozen or not, hashed once or twice", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const open = value(next, 4);
      expect(valueHash(open), `seed ${seed}`).toBe(uncached(open));
      const frozen = deepFreeze(structuredClone(open));
      expect(valueHash(frozen), `seed ${seed}`).toBe(uncached(frozen));
      expect(valueHash(frozen), `seed ${seed}, again`).toBe(uncached(frozen));
    }
  });

  it("equal the hash computed afresh after commits that share every record they do not change", () => {
    for (let seed = 1; seed <= 50; seed++) {
      const next = random(seed);
      let entity = records(next, 40);
      let world = { shop: { orders: entity, count: 40 } };
      expect(worldHash(world)).toEqual({ hash: expect.any(String), fakes: { shop: fakeHash(world.shop) } });
      for (let commit = 0; commit < 10; commit++) {
        // A commit as a draft makes it: a new container, one record replaced, one added, one removed.
        const changed: Record<string, unknown> = { ...entity, [`r-${Math.floor(next() * 40)}`]: { id: "changed", data: value(next, 3) } };
        changed[`new-${commit}`] = { id: `new-${commit}`, data: value(next, 2) };
        delete changed[`r-${Math.floor(next() * 40)}`];
        entity = deepFreeze(changed);
        world = { shop: { orders: entity, count: 40 + commit } };
        expect(valueHash(entity), `seed ${seed}, commit ${commit}`).toBe(uncached(entity));
        expect(fakeHash(world.shop).entities.orders).toBe(uncached(entity));
      }
    }
  });

  it("reads a frozen value once, and after a commit only the records it changed", () => {
    const reads: string[] = [];
    /** A frozen record that counts how often its field is read. */
    const record = (id: string) => {
      const r = {};
      Object.defineProperty(r, "id", { enumerable: true, get: () => (reads.push(id), id) });
      return Object.freeze(r);
    };
    const before = Object.freeze({ a: record("a"), b: record("b"), c: record("c") });
    const hash = valueHash(before);
    expect(reads.sort()).toEqual(["a", "b", "c"]);
    reads.length = 0;
    expect(valueHash(before)).toBe(hash);
    expect(reads).toEqual([]);
    const after = Object.freeze({ ...before, b: record("b2") });
    expect(valueHash(after)).toBe(uncached({ a: { id: "a" }, b: { id: "b2" }, c: { id: "c" } }));
    expect(reads).toEqual(["b2"]);
  });

  it("writes a hole in a sparse frozen array as null, as JSON does", () => {
    const holes: unknown[] = [1];
    holes[2] = 3;
    const sparse = deepFreeze(holes);
    expect(valueHash(sparse)).toBe(uncached([1, null, 3]));
  });

  it("hashes a frozen value with toJSON as JSON writes it", () => {
    const when = deepFreeze({ at: new Date("2026-10-01T09:00:00.000Z"), list: Object.freeze([new Date(0)]) });
    expect(valueHash(when)).toBe(uncached(when));
  });
});
