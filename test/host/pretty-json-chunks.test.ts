import { describe, expect, it } from "vitest";
import { prettyJsonChunks } from "../../engine/serve/host/pretty-json-chunks.js";

/** A small seeded generator, so a failing value can be made again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random value of the shapes JSON holds, and of some it does not (undefined, a Date, a function). */
function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 5 ? 6 : 9));
  switch (pick) {
    case 0:
      return Math.floor(next() * 1000) - 500;
    case 1:
      return next() < 0.5 ? `text\nwith "quotes" ${Math.floor(next() * 10)}` : "";
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return next() < 0.5 ? undefined : () => 1;
    case 5:
      return next() < 0.5 ? new Date(Date.UTC(2026, 0, 1)) : 1.5e-7;
    case 6:
    case 7: {
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 5); i > 0; i--) object[next() < 0.2 ? `k"${i}\n` : `k${i}`] = randomValue(next, depth + 1);
      return object;
    }
    default:
      return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
  }
}

describe("a snapshot serialised in pieces", () => {
  it("joins to exactly what JSON.stringify(value, null, 2) writes, over random values", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      // Entities past a slice's size (an array of records, an object keyed by id) are written in slices.
      const many = Array.from({ length: 300 + Math.floor(next() * 300) }, () => randomValue(next, 4));
      const byId = Object.fromEntries(many.map((item, i) => [`id-${i}`, item]));
      const world = {
        notes: { items: randomValue(next, 0), many, byId, counter: randomValue(next, 3) },
        empty: {},
        mail: randomValue(next, 1),
        gaps: { undefinedOnly: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`u${i}`, i < 300 ? undefined : i])) },
      };
      expect([...prettyJsonChunks(world)].join(""), `seed ${seed}`).toBe(JSON.stringify(world, null, 2));
    }
  });

  it("yields a large entity a slice of records at a time, not as one piece", () => {
    const world = { shop: { items: Array.from({ length: 10_000 }, (_, i) => ({ id: i, tags: ["a"] })) } };
    const pieces = [...prettyJsonChunks(world)];
    expect(pieces.length).toBeGreaterThan(10_000 / 256);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(JSON.stringify(world, null, 2).length / 20);
  });
});
