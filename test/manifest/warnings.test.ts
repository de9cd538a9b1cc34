import { describe, expect, it } from "vitest";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";

const fixture = (name: string) => new URL(`../fixtures/${name}/fakes.yaml`, import.meta.url).pathname;

describe("validate's warnings", () => {
  it("warns W_UNKNOWN_ARGUMENT at a $args.<name> the input schema does not declare, with the declared names", async () => {
    const { manifest, diagnostics } = await checkManifest(fixture("warn-unknown-argument"));
    expect(manifest).toBeDefined();
    const warnings = diagnostics.filter((d) => d.code === "W_UNKNOWN_ARGUMENT");
    expect(warnings.map((d) => [d.severity, d.line, d.column])).toEqual([["warning", 26, 43]]);
    expect(warnings[0].message).toBe('"get-note" reads $args.idd, which its input schema does not declare. Did you mean "id"?');
    expect(warnings[0].hint).toBe("Arguments of get-note: id.");
  });

  it("does not warn for arguments the schema declares", async () => {
    const { diagnostics } = await checkManifest(fixture("valid"));
    expect(diagnostics.filter((d) => d.code === "W_UNKNOWN_ARGUMENT")).toEqual([]);
  });
});
