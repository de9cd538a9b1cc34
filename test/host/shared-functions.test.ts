import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";
import { connect, serve, textOf } from "../support/services.js";

// Functions declared once under `functions:` and called by name from every JSONata handler.
const dir = mkdtempSync(join(tmpdir(), "eval-simulate-functions-"));
let services: Awaited<ReturnType<typeof serve>>;

const manifest = (functions: string[]) =>
  [
    "version: 1",
    "functions:",
    ...functions,
    "servers:",
    "  notes:",
    "    captured: tools.json",
    "    entities:",
    "      notes: { schema: { type: array }, default: [] }",
    "    tools:",
    "      list-notes:",
    "        reads: [notes]",
    "        answer: { format: json, schema: { type: object, properties: { notes: { type: array } } } }",
    `        jsonata: '{ "notes": $open($state.notes).id }'`,
    "      export-notes:",
    "        reads: [notes]",
    "        answer: { format: text }",
    `        jsonata: '$shout("n2")'`,
    "scenarios:",
    "  some:",
    "    default: true",
    "    state:",
    "      notes:",
    "        notes: [{ id: n1, open: true, title: Kickoff }, { id: n2, open: true, title: Review }, { id: n3, open: false, title: Old }]",
    "",
  ].join("\n");

beforeAll(async () => {
  copyFileSync(new URL("../fixtures/valid/tools.json", import.meta.url), join(dir, "tools.json"));
  writeFileSync(
    join(dir, "fakes.yaml"),
    manifest([
      `  open: "function($notes) { $notes[open = true] }"`,
      // A function sees the calling handler's bindings ($state) and the functions before it.
      `  titleOf: "function($id) { $state.notes[id = $id].title }"`,
      `  shout: "function($id) { $uppercase($titleOf($id)) }"`,
    ]),
  );
  services = await serve(join(dir, "fakes.yaml"));
});

afterAll(async () => {
  await services?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the manifest's shared JSONata functions", () => {
  it("are callable from every handler, see its bindings and the functions declared before them", async () => {
    const client = await connect(services.url("notes"));
    expect(JSON.parse(textOf(await client.callTool({ name: "list-notes", arguments: {} })))).toEqual({ notes: ["n1", "n2"] });
    expect(textOf(await client.callTool({ name: "export-notes", arguments: {} }))).toBe("REVIEW");
    await client.close();
  });

  it("are refused by validate when not a function, not JSONata, or named as a binding", async () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(
      bad,
      manifest([`  open: "$notes[open = true]"`, `  state: "function() { 1 }"`, `  shout: "function($x) { $x + }"`, `  titleOf: "function($x) { $x }"`]),
    );
    const { diagnostics } = await checkManifest(bad);
    expect(diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.path])).toEqual([
      ["E_JSONATA_BLOCK", "functions.open"],
      ["E_JSONATA_BLOCK", "functions.state"],
      ["E_JSONATA_SYNTAX", "functions.shout"],
    ]);
  });

  it("are callable from invariants, which validate checks on every scenario's world", async () => {
    const checked = join(dir, "invariants.yaml");
    const invariants = [
      "invariants:",
      "  - name: at most two notes are open",
      "    assert: '$count($open($world.notes.notes)) <= 2'",
      "  - name: no note is open",
      "    assert: '$count($open($world.notes.notes)) = 0'",
      "",
    ];
    writeFileSync(checked, manifest([`  open: "function($notes) { $notes[open = true] }"`]) + invariants.join("\n"));
    const { diagnostics } = await checkManifest(checked);
    expect(diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([
      'the invariant "no note is open" does not hold in scenario "some"',
    ]);
  });
});
