import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import validate from "../../cli/validate.js";
import { checkSelectionFixtures } from "../../engine/tools/checks/check-selection-fixtures.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { checkEvals } from "../../engine/judge/evals/load-evals.js";
import { selectionCatalog } from "../../engine/judge/selection/catalog.js";
import { resolveFixtures } from "../../engine/judge/selection/check-selection.js";
import { collector, runCollected } from "../checks/collected-tests.js";
import { ROOT } from "../support/examples.js";
import { runInProcess } from "../support/run-command.js";

const EXAMPLE = join(ROOT, "examples/workspace");
const CLOCK = "2026-10-01T09:00:00.000Z";

/** A copy of the workspace example (its handlers import eval-simulate, so the copy links the package). */
function copyExample(edit: (dir: string) => void = () => undefined): string {
  const dir = mkdtempSync(join(tmpdir(), "selection-"));
  cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes("/tests") });
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules/eval-simulate"));
  edit(dir);
  return dir;
}

const replaceIn = (file: string, from: string | RegExp, to: string) => writeFileSync(file, readFileSync(file, "utf8").replace(from, to));

/** The captured tool read_text_file renamed read_text, as a new release of the server would list it. */
function renameCapturedTool(dir: string): void {
  replaceIn(join(dir, "mcp/files/tools.json"), '"name": "read_text_file"', '"name": "read_text"');
  replaceIn(join(dir, "fakes.yaml"), "      read_text_file: { reads: [files] }", "      read_text: { reads: [files] }");
  replaceIn(join(dir, "fakes.yaml"), "[read_file, read_text_file,", "[read_file, read_text,");
  replaceIn(join(dir, "mcp/files/handlers.ts"), "read_text_file: (args", "read_text: (args");
}

describe("selection fixtures checked against the served catalog", () => {
  it("the workspace example's 36 fixtures cover its 6 areas over 23 served tools and validate", async () => {
    const checked = await checkEvals(join(EXAMPLE, "evals.yaml"), { clock: CLOCK });
    expect(checked.diagnostics).toEqual([]);
    const catalog = selectionCatalog(checked.fakes!.fakes);
    expect(catalog.tools).toHaveLength(23);
    expect(catalog.areas).toEqual(["read-files", "write-files", "browse-files", "remember", "forget", "recall"]);
    const fixtures = resolveFixtures(checked.evals!.selection!, catalog);
    expect(fixtures).toHaveLength(36);
    const perArea = Object.fromEntries(catalog.areas.map((area) => [area, fixtures.filter((f) => f.area === area).length]));
    expect(perArea).toEqual({ "read-files": 6, "write-files": 6, "browse-files": 6, remember: 6, forget: 6, recall: 6 });
    // Offered exactly as captured: description and input schema untouched.
    const captured = JSON.parse(readFileSync(join(EXAMPLE, "mcp/files/tools.json"), "utf8")).tools.find((t: { name: string }) => t.name === "edit_file");
    const offered = catalog.tools.find((t) => t.id === "files/edit_file")!;
    expect(offered).toMatchObject({
      name: "edit_file",
      server: "files",
      area: "write-files",
      description: captured.description,
      inputSchema: captured.inputSchema,
    });
  });

  it("fails validation when a captured tool is renamed, naming each fixture at file:line:column with a did-you-mean", async () => {
    const dir = copyExample(renameCapturedTool);
    const checked = await checkEvals(join(dir, "evals.yaml"), { clock: CLOCK });
    const errors = checked.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => [d.code, d.path, d.line, d.column])).toEqual([
      ["E_UNKNOWN_TOOL", "selection[0].expectedTools[0]", 19, 80],
      ["E_UNKNOWN_TOOL", "selection[1].expectedTools[0]", 20, 90],
      ["E_UNKNOWN_TOOL", "selection[2].expectedTools[0]", 21, 95],
      ["E_UNKNOWN_TOOL", "selection[5].expectedTools[1]", 24, 146],
    ]);
    expect(errors[0].message).toBe('no served MCP tool is named "read_text_file". Did you mean "read_text"?');
    const cli = await runInProcess(validate, [join(dir, "evals.yaml")]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('evals.yaml:19:80 error E_UNKNOWN_TOOL no served MCP tool is named "read_text_file". Did you mean "read_text"?');
  });

  it("fails the Recipe's registered test of expected tools, and only that one, after the rename", async () => {
    const dir = copyExample(renameCapturedTool);
    const { test, tests } = collector();
    const names = checkSelectionFixtures({ test, evals: join(dir, "evals.yaml"), clock: CLOCK });
    expect(names).toEqual(tests.map((t) => t.name));
    const outcomes = await runCollected(tests);
    expect(outcomes.map((o) => [o.name, o.ok])).toEqual([
      ["evals.yaml and its fakes load and are valid", true],
      ["selection fixtures in evals.yaml have unique ids and queries", true],
      ["selection fixtures in evals.yaml expect only tools the fakes serve", false],
      ["selection fixtures in evals.yaml meet their counts and cover every area", true],
    ]);
    expect(outcomes[2].message).toContain(`${join(dir, "evals.yaml")}:19:80 no served MCP tool is named "read_text_file". Did you mean "read_text"?`);
  });

  it("reports repeated ids and queries, a tool expected twice, an unknown area, counts and an uncovered area, all at once", async () => {
    const dir = copyExample((d) => {
      const file = join(d, "evals.yaml");
      replaceIn(file, "minFixtures: 30", "minFixtures: 40");
      replaceIn(file, "minAreas: 6", "minAreas: 7");
      replaceIn(file, / {2}- \{ id: (dump-memory|who-on-call|search-deploy|open-ada|open-grace|graph-size),.*\n/g, "");
      replaceIn(
        file,
        'id: read-tail, query: "What are the last two lines of docs/deploy.md?"',
        'id: read-head, query: "print the first 3 lines of  src/server.ts."',
      );
      replaceIn(file, "expectedTools: [edit_file] }", "expectedTools: [edit_file, files/edit_file], area: write-file }");
    });
    const checked = await checkEvals(join(dir, "evals.yaml"), { clock: CLOCK });
    expect(checked.diagnostics.map((d) => `${d.code} ${d.path}: ${d.message}`)).toEqual([
      "E_SELECTION selectionOptions.minFixtures: 30 selection fixtures, fewer than minFixtures (40)",
      "E_SELECTION selectionOptions.minAreas: the fixtures cover 5 areas (read-files, write-files, browse-files, remember, forget), fewer than minAreas (7)",
      'E_SELECTION selection: no fixture covers the area "recall" (memory/read_graph, memory/search_nodes, memory/open_nodes)',
      'E_DUPLICATE_ID selection[2].id: two selection fixtures have the id "read-head"',
      'E_DUPLICATE_ID selection[2].query: fixture "read-head" asks the same query as "read-head"',
      'E_SELECTION selection[7].expectedTools[1]: files/edit_file is expected twice in fixture "edit-port"',
      'E_SELECTION selection[7].area: no area "write-file" in the catalog. Did you mean "write-files"?',
    ]);
  });

  it("refuses a manifest area naming a tool the fake does not serve, or a tool in two areas", async () => {
    const dir = copyExample((d) => replaceIn(join(d, "fakes.yaml"), "remember: [create_entities,", "remember: [create_entity, delete_entities,"));
    const { manifest } = await loadFakes(join(dir, "fakes.yaml"), { clock: CLOCK }).then(
      () => ({ manifest: undefined }),
      (error: { diagnostics: Array<{ code: string; path: string; message: string }> }) => ({ manifest: error.diagnostics }),
    );
    expect(manifest?.map((d) => `${d.code} ${d.path}: ${d.message}`)).toEqual([
      'E_UNKNOWN_TOOL servers.memory.areas.remember[0]: area "remember" lists "create_entity", which this fake does not serve. Did you mean "create_entities"?',
      'E_DUPLICATE_ID servers.memory.areas.forget[0]: "delete_entities" is in two areas: "remember" and "forget"',
    ]);
  });

  it("says an API operation is not offered to a selection model, and scores a manifest without areas by server id", async () => {
    const dir = mkdtempSync(join(tmpdir(), "selection-api-"));
    const file = join(dir, "evals.yaml");
    writeFileSync(
      file,
      `version: 1\nfakes: ${join(ROOT, "examples/github/fakes.yaml")}\nselectionOptions: { minAreas: 1 }\nselection:\n  - { id: file-issue, query: "Open an issue for this bug.", expectedTools: [github/issues/create] }\n  - { id: tickets, query: "Which tickets are open?", expectedTools: [list-tickets] }\n`,
    );
    const checked = await checkEvals(file, { clock: CLOCK, allowOutside: true });
    expect(checked.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      '5:77 E_UNKNOWN_TOOL "github/issues/create" is an API operation: a selection model is offered the MCP fakes\' tools only',
    ]);
    const { fakes } = await loadFakes(join(ROOT, "examples/github/fakes.yaml"), { clock: CLOCK });
    expect(selectionCatalog(fakes).areas).toEqual(["tracker"]);
  });
});
