import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allowedTools, readRecipeServers } from "../../engine/tools/checks/allow-list.js";
import { checkRecipeFakes } from "../../engine/entries/checks.js";
import { CLOCK, MANIFEST } from "../fixtures/checks-valid/record.js";
import { collector, runCollected } from "./collected-tests.js";

function recipe(servers: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "recipe-")), "package.json");
  writeFileSync(file, JSON.stringify({ name: "a-recipe", pi: { mcp: { servers } } }));
  return file;
}

describe("the Recipe's allow-list", () => {
  it("includes '*' or named tools, less the excluded ones, in captured order", () => {
    const { servers } = readRecipeServers(recipe([{ id: "notes", tools: { include: ["*"], exclude: ["get-note"] } }, { id: "mail" }]));
    expect(allowedTools(["list-notes", "create-note", "get-note"], servers.get("notes")!)).toEqual(["list-notes", "create-note"]);
    expect(servers.get("mail")).toEqual({ id: "mail", include: ["*"], exclude: [] });
    const named = readRecipeServers(recipe({ notes: { tools: { include: ["get-note", "list-notes"] } } })).servers.get("notes")!;
    expect(allowedTools(["list-notes", "create-note", "get-note"], named)).toEqual(["list-notes", "get-note"]);
  });

  it("refuses a package.json that declares no MCP server", () => {
    expect(() => readRecipeServers(recipe([]))).toThrow(/declares no MCP server under pi\.mcp\.servers/);
  });

  it("passes when the fake serves exactly what the Recipe allows", async () => {
    const file = recipe([{ id: "notes", tools: { include: ["*"], exclude: ["delete-note"] } }]);
    const { test, tests } = collector();
    checkRecipeFakes({ test, manifest: MANIFEST, recipe: file, clock: CLOCK });
    const outcomes = await runCollected(tests.slice(0, 2));
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
  });

  it("fails the tools/list and entity-map checks when the Recipe allows a tool the fake does not serve", async () => {
    const file = recipe([{ id: "notes", tools: { include: ["list-notes", "delete-note"] } }]);
    const { test, tests } = collector();
    checkRecipeFakes({ test, manifest: MANIFEST, recipe: file, clock: CLOCK });
    const [served, mapped] = await runCollected(tests.slice(0, 2));
    expect(served.message).toMatch(/"delete-note" is allowed \(pi\.mcp\.servers "notes" tools in .*package\.json\) but not served/);
    expect(served.message).toMatch(/"create-note" is served but not allowed by pi\.mcp\.servers "notes" tools/);
    expect(mapped.message).toMatch(/"delete-note" is allowed by .* but has no entry in the entity map/);
  });

  it("fails when the Recipe does not declare the fake", async () => {
    const { test, tests } = collector();
    checkRecipeFakes({ test, manifest: MANIFEST, recipe: recipe([{ id: "mail" }]), clock: CLOCK });
    const [served] = await runCollected(tests.slice(0, 1));
    expect(served.message).toMatch(/declares no MCP server "notes" under pi\.mcp\.servers \(it declares mail\)/);
  });
});
