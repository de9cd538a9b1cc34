import { describe, expect, it } from "vitest";
import { deepFreeze } from "../../engine/serve/runtime/deep-freeze.js";
import { jsonBytes } from "../../engine/serve/runtime/json-bytes.js";

const measured = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "");

describe("a world's size summed from the records a commit shares", () => {
  it("equals the bytes JSON.stringify writes for a new entity that shares frozen records", () => {
    const records = deepFreeze(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`r-${i}`, { id: `r-${i}`, name: `Ünïcode ${i}`, tags: ["a", i] }])));
    expect(jsonBytes(records)).toBe(measured(records));
    for (const value of [
      { ...records, "r-3": { id: "r-3", name: "changed", gone: undefined, f: () => 1 } },
      { ...records, 'new "key" é': [1, undefined, null, records["r-1"]] },
      Object.values(records),
      [...Object.values(records), undefined, () => 1, "tail"],
      {},
      [],
    ])
      expect(jsonBytes(value)).toBe(measured(value));
  });
});
