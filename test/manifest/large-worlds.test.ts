import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkManifest } from "../../engine/author/manifest/load-manifest.js";

/**
 * A Recipe's world may hold 100,000 records. The upper bounds are the issue's, and generous:
 * they catch a quadratic step (the yaml library's duplicate-key check never finished), not a
 * slow machine. They bound the CPU time this process spends, which a machine shared with other
 * work does not inflate the way it inflates the wall clock (each test file runs in its own
 * process).
 */
const root = mkdtempSync(join(tmpdir(), "eval-simulate-large-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const RECORDS = 100_000;
const TOOLS = JSON.stringify({ tools: [{ name: "count-records", inputSchema: { type: "object" } }] });

/** A manifest whose `records` entity holds `records` (YAML text for the value), in its own folder. */
function recipe(name: string, entity: "map" | "list" | "amounts", records: string, files: Record<string, string> = {}): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "data"), { recursive: true });
  writeFileSync(join(dir, "tools.json"), TOOLS);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  const schema = {
    map: '{ type: object, additionalProperties: { $ref: "#/schemas/Record" } }, default: {}',
    amounts: "{ type: object, additionalProperties: { type: integer } }, default: {}",
    list: '{ type: array, items: { $ref: "#/schemas/Record" } }, default: []',
  }[entity];
  writeFileSync(
    join(dir, "fakes.yaml"),
    `version: 1
servers:
  crm:
    captured: tools.json
    entities:
      records: { schema: ${schema} }
    tools:
      count-records:
        reads: [records]
        answer: { format: json }
        jsonata: '{ "count": $count($keys($state.records)) }'
schemas:
  Record: { type: object, required: [id, amount], properties: { id: { type: string }, amount: { type: number }, open: { type: boolean } } }
scenarios:
  big:
    default: true
    state:
      crm:
        records: ${records}
`,
  );
  return join(dir, "fakes.yaml");
}

const record = (i: number) => ({ id: `rec-${i}`, amount: i * 3, open: i % 2 === 0 });

async function timed(file: string) {
  const started = process.cpuUsage();
  const result = await checkManifest(file, { clock: "2026-11-30T09:00:00Z" });
  const spent = process.cpuUsage(started);
  return { ...result, seconds: (spent.user + spent.system) / 1e6 };
}

describe("large worlds", () => {
  it("validates a scenario mapping of 100,000 keys in seconds, and still finds a duplicate key at its place", async () => {
    // Small values, so the time measured is the keys' (yaml parses about a megabyte a second).
    let yaml = "\n";
    for (let i = 0; i < RECORDS; i++) yaml += `          rec-${i}: ${i}\n`;
    const valid = await timed(recipe("mapping", "amounts", yaml));
    expect(valid.diagnostics).toEqual([]);
    expect(valid.manifest?.world.scenarios).toEqual(["big"]);
    expect(valid.seconds).toBeLessThan(10);

    const duplicated = await timed(recipe("mapping-duplicate", "amounts", `${yaml}          rec-77: 1\n`));
    expect(duplicated.diagnostics.map((d) => [d.code, d.line, d.column, d.message])).toEqual([
      ["E_YAML_DUPLICATE_KEY", 20 + RECORDS, 11, 'the key "rec-77" appears twice in the same map'],
    ]);
    expect(duplicated.seconds).toBeLessThan(10);
  }, 60_000);

  it("reads a world of 100,000 records from a JSON or a JSON Lines $file in under 2 s", async () => {
    const records = Array.from({ length: RECORDS }, (_, i) => record(i));
    const json = await timed(recipe("file-json", "list", "{ $file: data/records.json }", { "data/records.json": JSON.stringify(records) }));
    expect(json.diagnostics).toEqual([]);
    expect(json.seconds).toBeLessThan(2);
    const world = await json.manifest!.world.build("big", new Date("2026-11-30T09:00:00Z"));
    expect((world.crm as { records: unknown[] }).records).toHaveLength(RECORDS);
    expect((world.crm as { records: unknown[] }).records[99_999]).toEqual(record(99_999));

    const lines = await timed(
      recipe("file-jsonl", "list", "{ $file: data/records.jsonl }", { "data/records.jsonl": `${records.map((r) => JSON.stringify(r)).join("\n")}\n` }),
    );
    expect(lines.diagnostics).toEqual([]);
    expect(lines.seconds).toBeLessThan(2);
  }, 60_000);
});

describe("$file scenario values", () => {
  it("checks a data file's records against the entity schema, pointing at the $file reference", async () => {
    const file = recipe("file-invalid", "list", "{ $file: data/records.json }", {
      "data/records.json": JSON.stringify([record(1), { id: "rec-2", amount: "many" }]),
    });
    const { diagnostics } = await checkManifest(file);
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["E_WORLD_SCHEMA", 19, 18]]);
    expect(diagnostics[0].message).toMatch(/amount/);
  });

  it("resolves special values inside data as it does inline, and reads a $file in an entity's default", async () => {
    const dir = join(root, "file-default");
    const file = recipe("file-default", "list", "[]", { "data/seed.json": JSON.stringify([{ id: { $id: "first" }, amount: 1 }]) });
    writeFileSync(
      file,
      (await import("node:fs"))
        .readFileSync(file, "utf8")
        .replace("default: []", "default: { $file: data/seed.json }")
        .replace("records: []", "records: { $file: data/seed.json }"),
    );
    const { manifest, diagnostics } = await checkManifest(join(dir, "fakes.yaml"));
    expect(diagnostics).toEqual([]);
    const world = await manifest!.world.build("big", new Date("2026-11-30T09:00:00Z"));
    expect((world.crm as { records: Array<{ id: string }> }).records[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a data file outside the Recipe's folder, one that is not .json or .jsonl, and a number JSON reads as Infinity", async () => {
    writeFileSync(join(root, "outside.json"), "[]");
    const outside = await checkManifest(recipe("file-outside", "list", "{ $file: ../outside.json }"));
    expect(outside.diagnostics.map((d) => [d.code, d.line])).toEqual([["E_IO", 19]]);
    expect(outside.diagnostics[0].message).toMatch(/outside the Recipe's folder/);

    const csv = await checkManifest(recipe("file-csv", "list", "{ $file: data/records.csv }"));
    expect(csv.diagnostics.map((d) => d.code)).toEqual(["E_WORLD_VALUE"]);

    const huge = await checkManifest(
      recipe("file-huge", "list", "{ $file: data/records.json }", { "data/records.json": '[{ "id": "rec-1", "amount": 1e400 }]' }),
    );
    expect(huge.diagnostics.map((d) => [d.code, d.path])).toEqual([["E_NON_FINITE", "scenarios.big.state.crm.records[0].amount"]]);
  });

  it("places a JSON Lines syntax error at its line and column in the data file", async () => {
    const file = recipe("file-lines-broken", "list", "{ $file: data/records.jsonl }", {
      "data/records.jsonl": '{"id":"rec-1","amount":1}\n{"id":"rec-2","amount":}\n',
    });
    const { diagnostics } = await checkManifest(file);
    expect(diagnostics.map((d) => [d.code, d.file.endsWith("records.jsonl"), d.line, d.column])).toEqual([["E_FILE_PARSE", true, 2, 24]]);
  });
});

describe("$file data nesting", () => {
  it("refuses a data file nested deeper than the limit instead of overflowing the stack", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const file = recipe("file-deep", "list", "{ $file: data/records.json }", { "data/records.json": deep });
    const { diagnostics } = await checkManifest(file);
    expect(diagnostics.map((d) => d.code)).toEqual([expect.stringMatching(/^E_(WORLD_VALUE|FILE_PARSE)$/)]);
    expect(diagnostics[0].message).toMatch(/nests/);
  });
});
