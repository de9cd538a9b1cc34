// The workspace fakes' own tests, run by node:test (`node --test examples/*/tests/*.test.js`): a
// few behaviours of the filesystem and memory fakes, recorded to responses.jsonl; the checks
// every Recipe keeps (checkRecipeFakes); and the selection fixtures of evals.yaml checked against
// the served catalog (checkSelectionFixtures), so renaming a captured tool fails here at once.
// fakes.vitest.ts is the same file for vitest.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
import { checkRecipeFakes, checkSelectionFixtures } from "eval-simulate/checks";
import { call, callTool, recording, withFakes } from "eval-simulate/testing";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const EVALS = fileURLToPath(new URL("../evals.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const CLOCK = "2026-10-01T09:00:00.000Z";
const options = { clock: CLOCK, record: RECORD };

// node:test on Node 20 has no global setup: the one file that records empties it first and
// sorts it last.
const { globalSetup, globalTeardown } = recording(RECORD);
before(globalSetup);
after(globalTeardown);

const loaded = loadFakes(MANIFEST, { clock: CLOCK });

test("an edit answers a git-style diff and changes the file; a dry run changes nothing", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "project",
    async ({ files, states }) => {
      const edit = { path: "src/server.ts", edits: [{ oldText: "const PORT = 8080;", newText: "const PORT = 3000;" }] };
      const preview = await callTool(files, "edit_file", { ...edit, dryRun: true });
      assert.match(preview.value.content, /-const PORT = 8080;\n\+const PORT = 3000;/);
      assert.match(states.files.files.find((f) => f.path === "/workspace/src/server.ts").content, /8080/);
      await call(files, "edit_file", edit);
      const { value } = await callTool(files, "read_text_file", { path: "/workspace/src/server.ts", head: 3 });
      assert.equal(value.content, 'import { serve } from "./http.js";\n\nconst PORT = 3000;');
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
      await assert.rejects(call(files, "read_text_file", { path: "/etc/passwd" }), {
        message: /^Access denied - path outside allowed directories: \/etc\/passwd not in \/workspace/,
      });
      const { value } = await callTool(files, "search_files", { path: "/workspace", pattern: "**/*.md" });
      assert.deepEqual(value.content.split("\n"), ["/workspace/README.md", "/workspace/docs/deploy.md"]);
      const listing = await callTool(files, "list_directory", { path: "/workspace" });
      assert.deepEqual(listing.value.content.split("\n"), ["[FILE] README.md", "[DIR] docs", "[FILE] package.json", "[DIR] src"]);
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
      const found = await callTool(memory, "search_nodes", { query: "on call" });
      assert.deepEqual(
        found.value.entities.map((e) => e.name),
        ["Grace_Hopper"],
      );
      await call(memory, "delete_entities", { entityNames: ["Grace_Hopper"] });
      const graph = await callTool(memory, "read_graph", {});
      assert.deepEqual(graph.value.relations, [{ from: "Ada_Lovelace", to: "Lighthouse", relationType: "leads" }]);
      await assert.rejects(call(memory, "add_observations", { observations: [{ entityName: "Grace_Hopper", contents: ["back"] }] }), {
        message: /Entity with name Grace_Hopper not found/,
      });
    },
    options,
  );
});

checkRecipeFakes({ test, manifest: MANIFEST, clock: CLOCK, record: RECORD });
checkSelectionFixtures({ test, evals: EVALS, clock: CLOCK });
