import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "../../engine/author/source/index.js";

const doc = readFileSync(new URL("../../docs/manifest.md", import.meta.url), "utf8");

describe("docs/manifest.md's diagnostic codes", () => {
  it("name every code validate reports", () => {
    const listed = new Set(doc.match(/`[EW]_[A-Z0-9_]+`/g)?.map((code) => code.slice(1, -1)));
    expect(Object.keys(DIAGNOSTIC_CODES).filter((code) => !listed.has(code))).toEqual([]);
  });
});
