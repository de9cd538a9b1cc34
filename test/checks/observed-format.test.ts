import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadObserved, parseObserved } from "../../engine/entries/checks.js";

describe("observed.json", () => {
  it("loads a file in the format", () => {
    const observed = loadObserved(new URL("../fixtures/checks-valid/observed.json", import.meta.url).pathname);
    expect(observed.tools["list-notes"]).toMatchObject({ sampled: 4, answer: { format: "toon", canonical: true } });
  });

  it("refuses a file outside the format, naming every problem and the format's documentation", () => {
    expect(() => parseObserved({ version: 1, tools: { a: { sampled: 0, answer: { format: "yaml" } } } }, "observed.json")).toThrow(
      /^\[eval-simulate\] observed\.json is not an observed\.json: .*\/tools\/a\/sampled must be >= 1.*\/tools\/a\/answer\/format must be equal to one of the allowed values.*see engine\/tools\/checks\/observed-format\.md/,
    );
    expect(() => parseObserved({ version: 1, tools: { a: { sampled: 1, answer: { format: "json", prefix: "x", canonical: true } } } }, "o.json")).toThrow(
      /tools\.a\.answer: prefix and prefixes belong to prefixed_json, text and structured with text: text; tools\.a\.answer: canonical belongs to toon/,
    );
    expect(() => parseObserved({ version: 1, tools: { a: { sampled: 1, answer: { format: "json", schema: { "x-masked-values": 3 } } } } }, "o.json")).toThrow(
      /x-masked-values must be a JSON Schema/,
    );
  });

  it("says when the file is missing or not JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "observed-"));
    writeFileSync(join(dir, "observed.json"), "{ nope");
    expect(() => loadObserved(join(dir, "observed.json"))).toThrow(/observed\.json is not JSON/);
    expect(() => loadObserved(join(dir, "missing.json"))).toThrow(/cannot read the observations/);
  });
});
