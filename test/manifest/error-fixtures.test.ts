import { describe, expect, it } from "vitest";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";

const fixture = (name: string) => new URL(`../fixtures/${name}/fakes.yaml`, import.meta.url).pathname;

/**
 * One broken manifest per rule, each with every error it must report: [code, line, column].
 * The positions were read off the fixtures by hand; they are where an editor should jump.
 */
const CASES: Record<string, Array<[string, number, number] | [string, number, number, string]>> = {
  "error-yaml-syntax": [["E_YAML_SYNTAX", 13, 9]],
  "error-duplicate-key": [["E_YAML_DUPLICATE_KEY", 13, 9]],
  "error-unknown-key": [["E_UNKNOWN_KEY", 16, 9]],
  "error-missing-key": [["E_MISSING_KEY", 1, 1]],
  "error-invalid-id": [
    ["E_INVALID_ID", 3, 3],
    ["E_UNKNOWN_FAKE", 34, 7],
    ["E_UNKNOWN_FAKE", 40, 7],
    ["E_UNKNOWN_FAKE", 51, 38],
    ["E_UNKNOWN_FAKE", 51, 71],
  ],
  "error-enum": [["E_SCHEMA", 13, 27]],
  "error-duplicate-id": [["E_DUPLICATE_ID", 31, 3]],
  "error-capture-missing": [["E_IO", 4, 15]],
  "error-unknown-tool": [["E_UNKNOWN_TOOL", 27, 7]],
  "error-answer-missing": [["E_ANSWER_MISSING", 27, 7]],
  "error-answer-forbidden": [["E_ANSWER_FORBIDDEN", 26, 9]],
  "error-unknown-entity": [["E_UNKNOWN_ENTITY", 12, 17]],
  "error-entity-read": [
    ["E_UNKNOWN_ENTITY", 16, 37],
    ["E_UNKNOWN_ENTITY", 37, 77],
  ],
  "error-writes-read-only": [["E_WRITES_READ_ONLY", 13, 17]],
  "error-set-not-written": [["E_SET_NOT_WRITTEN", 22, 13]],
  "error-static-tool": [["E_STATIC_TOOL", 29, 17]],
  "error-handler-missing": [["E_HANDLER_MISSING", 24, 7]],
  "error-handler-duplicate": [["E_HANDLER_DUPLICATE", 30, 9]],
  // A syntax error in a TypeScript handlers module points into the module.
  "error-handler-module": [["E_HANDLER_MODULE", 3, 1, "broken-handlers.ts"]],
  "error-handler-syntax": [["E_HANDLER_MODULE", 3, 25, "handlers.ts"]],
  "error-jsonata-syntax": [["E_JSONATA_SYNTAX", 24, 66]],
  "error-json-schema": [["E_JSON_SCHEMA", 8, 17]],
  "error-schema-ref": [["E_SCHEMA_REF", 17, 41]],
  "error-scenario-extends": [["E_UNKNOWN_SCENARIO", 38, 14]],
  "error-scenario-cycle": [["E_SCENARIO_CYCLE", 33, 14]],
  "error-scenario-default": [["E_SCENARIO_DEFAULT", 38, 5]],
  "error-unknown-fake": [["E_UNKNOWN_FAKE", 34, 7]],
  "error-world-schema": [["E_WORLD_SCHEMA", 43, 13]],
  "error-world-value": [["E_WORLD_VALUE", 36, 54]],
  "error-invariant": [["E_INVARIANT", 51, 13]],
  "error-stub": [["E_STUB", 43, 34]],
  "error-capture-invalid": [["E_CAPTURE_INVALID", 4, 5, "tools.json"]],
  "error-unknown-operation": [["E_UNKNOWN_OPERATION", 6, 7]],
  "error-answer-invalid": [["E_ANSWER_INVALID", 11, 33]],
  "error-world-module": [["E_WORLD_MODULE", 12, 8]],
  "error-shape": [
    ["E_SCHEMA", 3, 3],
    ["E_SCHEMA", 4, 13],
    ["E_SCHEMA", 5, 12],
  ],
  "error-alias": [["E_YAML_SYNTAX", 4, 15]],
  "error-stub-compile": [["E_STUB", 43, 11]],
  "error-captured-schema": [["E_CAPTURE_INVALID", 11, 7]],
  "error-duplicate-operation": [["E_UNKNOWN_OPERATION", 8, 7]],
  "error-default-value": [["E_WORLD_VALUE", 9, 57]],
  // A typo in one scenario does not make another's `extends` or the default look wrong.
  "error-scenario-typo": [["E_UNKNOWN_KEY", 33, 5]],
  "error-schema-cycle": [["E_SCHEMA_REF", 45, 3]],
  // Reported once, at the named schema; the entities and answers that use it are not blamed.
  "error-schema-missing-nested": [["E_SCHEMA_REF", 46, 5]],
  // `.nan` in a default, `.inf` in a scenario's state, 1e309 (Infinity) in a stub's answer.
  "error-non-finite": [
    ["E_NON_FINITE", 9, 53],
    ["E_NON_FINITE", 43, 49],
    ["E_NON_FINITE", 47, 65],
  ],
  // A `$file` whose JSON is broken: placed in the data file, at the stray comma's next character.
  "error-data-file": [["E_FILE_PARSE", 3, 40, "data/notes.json"]],
};

describe("validate on broken manifests", () => {
  it("accepts the valid baseline every fixture breaks", async () => {
    const { manifest, diagnostics } = await checkManifest(fixture("valid"));
    expect(diagnostics).toEqual([]);
    expect(manifest?.servers[0].tools.map((t) => t.name)).toEqual(["list-notes", "create-note", "get-note", "export-notes"]);
  });

  it.each(Object.entries(CASES))("%s reports each error with its code at its line and column", async (name, expected) => {
    const { manifest, diagnostics } = await checkManifest(fixture(name));
    expect(manifest).toBeUndefined();
    const errors = diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => [d.code, d.line, d.column])).toEqual(expected.map(([code, line, column]) => [code, line, column]));
    errors.forEach((error, i) => {
      // A problem inside a file the manifest names (a capture) points into that file.
      const file = expected[i][3];
      expect(error.file).toBe(file ? fixture(name).replace(/fakes\.yaml$/, file) : fixture(name));
      expect(error.hint, `${error.code} has a hint`).toBeTruthy();
      expect(error.path).toBeTruthy();
    });
  });

  it("suggests the near name for a typo", async () => {
    const messages = async (name: string) => (await checkManifest(fixture(name))).diagnostics.map((d) => d.message).join("\n");
    expect(await messages("error-unknown-key")).toContain('Did you mean "writes"?');
    expect(await messages("error-unknown-tool")).toContain('Did you mean "export-notes"?');
    expect(await messages("error-unknown-entity")).toContain('Did you mean "notes"?');
    expect(await messages("error-entity-read")).toContain('"list-notes" reads $state.nots, which is not an entity of this fake. Did you mean "notes"?');
    expect(await messages("error-entity-read")).toContain('the invariant reads $world.notes.nots, which is not an entity of notes. Did you mean "notes"?');
    expect(await messages("error-scenario-extends")).toContain('Did you mean "quiet"?');
    expect(await messages("error-enum")).toContain('Did you mean "json"?');
  });

  it("names the cycle of extends", async () => {
    const { diagnostics } = await checkManifest(fixture("error-scenario-cycle"));
    expect(diagnostics[0].message).toContain("quiet → busy → quiet");
  });

  it("reports every problem of a manifest at once", async () => {
    const { diagnostics } = await checkManifest(fixture("error-many"));
    expect(diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual([
      "E_UNKNOWN_ENTITY",
      "E_JSONATA_SYNTAX",
      "E_UNKNOWN_TOOL",
      "E_UNKNOWN_SCENARIO",
    ]);
  });

  it("refuses a file that does not exist with an I/O error", async () => {
    const { diagnostics } = await checkManifest("/nonexistent/fakes.yaml");
    expect(diagnostics.map((d) => d.code)).toEqual(["E_IO"]);
  });

  it("warns where a JSONata handler reads an entity its reads and writes do not list", async () => {
    const { diagnostics } = await checkManifest(fixture("error-entity-read"));
    const warnings = diagnostics.filter((d) => d.severity === "warning");
    expect(warnings.map((d) => [d.code, d.line, d.column])).toEqual([["W_UNDECLARED_READ", 26, 75]]);
    expect(warnings[0]!.message).toBe('"get-note" reads $state.labels, which its reads and writes do not list');
  });
});
