import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { arraysAsDeclared } from "../../engine/author/handlers/index.js";
import { connect, serve, textOf } from "../support/services.js";

// JSONata gives a one-item sequence as the item; an answer schema that declares a list gets one.
const dir = mkdtempSync(join(tmpdir(), "eval-simulate-one-item-"));
let services: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  copyFileSync(new URL("../fixtures/valid/tools.json", import.meta.url), join(dir, "tools.json"));
  writeFileSync(
    join(dir, "fakes.yaml"),
    [
      "version: 1",
      "servers:",
      "  notes:",
      "    captured: tools.json",
      "    entities:",
      "      notes: { schema: { type: array }, default: [] }",
      "    tools:",
      "      list-notes:",
      "        reads: [notes]",
      "        answer: { format: json, schema: { type: object, properties: { notes: { type: array, items: { type: object, properties: { tags: { type: array } } } } } } }",
      `        jsonata: '{ "notes": $state.notes[open = true].{ "id": id, "tags": tags } }'`,
      "scenarios:",
      "  one-open:",
      "    default: true",
      "    state:",
      "      notes:",
      "        notes: [{ id: n1, open: true, tags: [urgent] }, { id: n2, open: false, tags: [] }]",
      "",
    ].join("\n"),
  );
  services = await serve(join(dir, "fakes.yaml"));
});

afterAll(async () => {
  await services?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a JSONata answer where its schema declares an array", () => {
  it("answers a one-item result as a list of one, nested lists included", async () => {
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "list-notes", arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({ notes: [{ id: "n1", tags: ["urgent"] }] });
    await client.close();
  });

  it("makes nothing an empty list and leaves values the schema does not declare as lists alone", () => {
    const schema = { type: "object", properties: { items: { type: "array" }, total: { type: "integer" } } };
    expect(arraysAsDeclared({ items: null, total: 1 }, schema)).toEqual({ items: [], total: 1 });
    expect(arraysAsDeclared({ total: 1 }, schema)).toEqual({ total: 1 });
    expect(arraysAsDeclared("x", { type: "array" })).toEqual(["x"]);
  });
});
