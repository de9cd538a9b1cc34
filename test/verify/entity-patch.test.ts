import { describe, expect, it } from "vitest";
import { applyEntityPatch, entityPatch, entityPatches, sameJson, valueHash, worldHash } from "../../engine/entries/verify.js";

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function randomValue(next: () => number, depth = 0): unknown {
  const r = next();
  if (depth > 3 || r < 0.3) return [null, true, 0, -1.5, "a", "b/c~d", ""][Math.floor(next() * 7)];
  if (r < 0.65) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [["x", "y/z", "~k", "id"][i], randomValue(next, depth + 1)]));
}

function mutateRecords(next: () => number, records: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  let out = records.filter(() => next() > 0.2).map((r) => (next() < 0.3 ? { ...r, v: Math.floor(next() * 10) } : r));
  if (next() < 0.5) out.push({ id: `n${Math.floor(next() * 1e6)}`, v: 1 });
  if (next() < 0.3) out = [...out].reverse();
  if (next() < 0.2) out.unshift({ id: `m${Math.floor(next() * 1e6)}` });
  return out;
}

describe("entity patches", () => {
  it("patches an array of records by key, without repeating the records that did not change", () => {
    const before = [
      { id: "T-1", s: "open" },
      { id: "T-2", s: "open" },
      { id: "T-3", s: "open" },
    ];
    const after = [
      { id: "T-1", s: "open" },
      { id: "T-2", s: "closed" },
      { id: "T-4", s: "new" },
    ];
    expect(entityPatch(before, after)).toEqual({ key: "id", added: [{ id: "T-4", s: "new" }], updated: [{ id: "T-2", s: "closed" }], removed: ["T-3"] });
    expect(applyEntityPatch(before, entityPatch(before, after)!)).toEqual(after);
  });

  it("records the new order by keys when records moved", () => {
    const before = [{ id: 1 }, { id: 2 }];
    const after = [{ id: 3 }, { id: 2 }, { id: 1 }];
    const patch = entityPatch(before, after)!;
    expect(patch).toEqual({ key: "id", added: [{ id: 3 }], order: [3, 2, 1] });
    expect(applyEntityPatch(before, patch)).toEqual(after);
  });

  it("writes a JSON Patch for values that are not arrays of records, escaping pointer characters", () => {
    const before = { settings: { "a/b": 1, "c~d": [1, 2, 3] }, gone: true };
    const after = { settings: { "a/b": 2, "c~d": [1, 3] }, added: "x" };
    expect(entityPatch(before, after)).toEqual([
      { op: "remove", path: "/gone" },
      { op: "replace", path: "/settings/a~1b", value: 2 },
      { op: "remove", path: "/settings/c~0d/1" },
      { op: "add", path: "/added", value: "x" },
    ]);
    expect(applyEntityPatch(before, entityPatch(before, after)!)).toEqual(after);
  });

  it("rebuilds the after value exactly from random values and random record lists, leaving the before value untouched", () => {
    const next = random(7);
    for (let i = 0; i < 2000; i++) {
      const before = randomValue(next);
      const after = randomValue(next);
      const frozen = JSON.stringify(before);
      const patch = entityPatch(before, after);
      if (!patch) expect(sameJson(before, after)).toBe(true);
      else expect(sameJson(applyEntityPatch(before, patch), after)).toBe(true);
      expect(JSON.stringify(before)).toBe(frozen);
    }
    let records = Array.from({ length: 20 }, (_, i) => ({ id: `r${i}`, v: i }) as Record<string, unknown>);
    for (let i = 0; i < 500; i++) {
      const after = mutateRecords(next, records);
      const patch = entityPatch(records, after);
      expect(sameJson(patch ? applyEntityPatch(records, patch) : records, after)).toBe(true);
      records = after;
    }
  });

  it("gives no patch for equal values and patches only the entities that changed", () => {
    expect(entityPatch({ a: [1] }, { a: [1] })).toBeUndefined();
    expect(entityPatches({ a: [], b: 1 }, { a: [{ id: 1 }], b: 1 })).toEqual({ a: { key: "id", added: [{ id: 1 }] } });
  });

  it("refuses a patch that does not fit the value it is applied to", () => {
    expect(() => applyEntityPatch({ a: 1 }, { key: "id", removed: ["x"] })).toThrow(/keyed patch/);
    expect(() => applyEntityPatch([{ id: 1 }], { key: "id", order: [2] })).toThrow(/orders a record "2"/);
  });
});

describe("world hashes", () => {
  it("hash equal worlds equal whatever their key order, and tell which fake and entity differ", () => {
    const a = worldHash({ crm: { deals: [{ id: 1, v: 2 }], notes: [] }, mail: { emails: [] } });
    const b = worldHash({ mail: { emails: [] }, crm: { notes: [], deals: [{ v: 2, id: 1 }] } });
    expect(a).toEqual(b);
    const c = worldHash({ crm: { deals: [{ id: 1, v: 3 }], notes: [] }, mail: { emails: [] } });
    expect(c.hash).not.toBe(a.hash);
    expect(c.fakes.mail).toEqual(a.fakes.mail);
    expect(c.fakes.crm.entities.notes).toBe(a.fakes.crm.entities.notes);
    expect(c.fakes.crm.entities.deals).not.toBe(a.fakes.crm.entities.deals);
  });

  it("is sha256 of canonical JSON: one number form, sorted keys", () => {
    expect(valueHash({ b: 1, a: 1.0 })).toBe(valueHash({ a: 1, b: 1 }));
    expect(valueHash(-0)).toBe(valueHash(0));
    expect(valueHash(false)).not.toBe(valueHash(0));
    expect(valueHash([1, 2])).not.toBe(valueHash([2, 1]));
    expect(valueHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
