import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";

const dir = mkdtempSync(join(tmpdir(), "eval-simulate-numeric-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A one-fake manifest whose `products` entity starts as `products` in its only scenario. */
async function warningsFor(products: string): Promise<Array<{ code: string; line: number; column: number; message: string }>> {
  copyFileSync(new URL("../fixtures/valid/tools.json", import.meta.url), join(dir, "tools.json"));
  writeFileSync(
    join(dir, "fakes.yaml"),
    [
      "version: 1",
      "servers:",
      "  shop:",
      "    captured: tools.json",
      "    entities:",
      "      products: { schema: { type: object }, default: {} }",
      "    tools:",
      "      list-notes: { reads: [products], answer: { format: json, schema: { type: object } }, jsonata: '$state.products' }",
      "scenarios:",
      "  stocked:",
      "    default: true",
      "    state:",
      "      shop:",
      `        products: ${products}`,
      "",
    ].join("\n"),
  );
  const { diagnostics } = await checkManifest(join(dir, "fakes.yaml"));
  return diagnostics.filter((d) => d.severity === "warning");
}

describe("integer-like object keys in a scenario", () => {
  it("warn that JavaScript reorders them, at the entity's value", async () => {
    const warnings = await warningsFor('{ "15": { name: Lamp }, "4": { name: Desk } }');
    expect(warnings.map((w) => [w.code, w.line])).toEqual([["W_NUMERIC_KEYS", 14]]);
    expect(warnings[0]!.message).toContain('shop.products has integer-like keys ("4", "15"…): JavaScript puts them first, in ascending numeric order');
  });

  it("do not warn for keys that are not integers", async () => {
    expect(await warningsFor('{ "p15": { name: Lamp }, "015": { name: Desk } }')).toEqual([]);
  });
});
