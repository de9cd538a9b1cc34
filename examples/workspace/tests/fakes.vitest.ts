// The workspace fakes' own tests under vitest: the same as fakes.test.js (node:test), so either
// runner keeps the same responses.jsonl.
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
import { checkRecipeFakes, checkSelectionFixtures } from "eval-simulate/checks";
import { call, callTool, recording, withFakes } from "eval-simulate/testing";
import { afterAll, beforeAll, expect, test } from "vitest";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const EVALS = fileURLToPath(new URL("../evals.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const CLOCK = "2026-10-01T09:00:00.000Z";
const options = { clock: CLOCK, record: RECORD };

const { globalSetup, globalTeardown } = recording(RECORD);
beforeAll(globalSetup);
afterAll(globalTeardown);

const loaded = loadFakes(MANIFEST, { clock: CLOCK });

type Text = { content: string };
type Graph = { entities: Array<{ name: string }>; relations: unknown[] };

test("an edit answers a git-style diff and changes the file; a dry run changes nothing", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "project",
    async ({ files, states }) => {
      const edit = { path: "src/server.ts", edits: [{ oldText: "const PORT = 8080;", newText: "const PORT = 3000;" }] };
      const preview = (await callTool(files, "edit_file", { ...edit, dryRun: true })).value as Text;
      expect(preview.content).toMatch(/-const PORT = 8080;\n\+const PORT = 3000;/);
      const before = (states.files as { files: Array<{ path: string; content: string }> }).files.find((f) => f.path === "/workspace/src/server.ts");
      expect(before?.content).toMatch(/8080/);
      await call(files, "edit_file", edit);
      const read = (await callTool(files, "read_text_file", { path: "/workspace/src/server.ts", head: 3 })).value as Text;
      expect(read.content).toBe('import { serve } from "./http.js";\n\nconst PORT = 3000;');
    },
    options,
  );
});

test("paths outside /workspace are refused, and globs find files in every subfolder", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "project",
    async ({ files }) => {
      await expect(call(files, "read_text_file", { path: "/etc/passwd" })).rejects.toThrow(
        /^Access denied - path outside allowed directories: \/etc\/passwd not in \/workspace/,
      );
      const found = (await callTool(files, "search_files", { path: "/workspace", pattern: "**/*.md" })).value as Text;
      expect(found.content.split("\n")).toEqual(["/workspace/README.md", "/workspace/docs/deploy.md"]);
      const listing = (await callTool(files, "list_directory", { path: "/workspace" })).value as Text;
      expect(listing.content.split("\n")).toEqual(["[FILE] README.md", "[DIR] docs", "[FILE] package.json", "[DIR] src"]);
    },
    options,
  );
});

test("deleting an entity from memory drops its relations; search finds observations", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "project",
    async ({ memory }) => {
      const found = (await callTool(memory, "search_nodes", { query: "on call" })).value as Graph;
      expect(found.entities.map((e) => e.name)).toEqual(["Grace_Hopper"]);
      await call(memory, "delete_entities", { entityNames: ["Grace_Hopper"] });
      const graph = (await callTool(memory, "read_graph", {})).value as Graph;
      expect(graph.relations).toEqual([{ from: "Ada_Lovelace", to: "Lighthouse", relationType: "leads" }]);
      await expect(call(memory, "add_observations", { observations: [{ entityName: "Grace_Hopper", contents: ["back"] }] })).rejects.toThrow(
        /Entity with name Grace_Hopper not found/,
      );
    },
    options,
  );
});

checkRecipeFakes({ test, manifest: MANIFEST, clock: CLOCK, record: RECORD });
checkSelectionFixtures({ test, evals: EVALS, clock: CLOCK });
