// The memory fake's own tests, run by node:test (`node --test examples/*/tests/*.test.js`):
// the session in replay-calls.yaml is recorded on the fake, replayed on the real
// @modelcontextprotocol/server-memory (over stdio, its memory file in a temp folder) and on a
// fresh fake with every answer compared byte for byte, and the checks every Recipe keeps hold
// the record to mcp/memory/observed.json. fakes.vitest.ts is the same file for vitest.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
import { checkRecipeFakes } from "eval-simulate/checks";
import { answerText, readCalls, replay } from "eval-simulate/fidelity";
import { callTool, recording, withFakes } from "eval-simulate/testing";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const CALLS = fileURLToPath(new URL("./replay-calls.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const SERVER = fileURLToPath(import.meta.resolve("@modelcontextprotocol/server-memory/dist/index.js"));

const { globalSetup, globalTeardown } = recording(RECORD);
before(globalSetup);
after(globalTeardown);

const calls = readCalls(CALLS);

test("the session is answered by the fake and recorded", async () => {
  const { fakes, world } = await loadFakes(MANIFEST);
  await withFakes(
    fakes,
    world,
    undefined,
    async ({ memory, states }) => {
      for (const call of calls.filter((c) => c.read === undefined)) await callTool(memory, call.tool, call.args);
      assert.deepEqual(
        states.memory.entities.map((entity) => entity.name),
        ["Ada Lovelace", "Charles Babbage"],
      );
    },
    { record: RECORD },
  );
});

test("the real memory server and the fake answer the session the same, byte for byte", { timeout: 120_000 }, async () => {
  const memoryFile = join(mkdtempSync(join(tmpdir(), "memory-replay-")), "memory.jsonl");
  const { calls: replayed } = await replay({
    manifest: MANIFEST,
    calls,
    target: { command: [process.execPath, SERVER], env: { MEMORY_FILE_PATH: memoryFile } },
  });
  assert.ok(replayed.length >= 15);
  const tools = new Set(replayed.map((r) => r.call.tool));
  for (const tool of [
    "create_entities",
    "create_relations",
    "add_observations",
    "delete_entities",
    "delete_observations",
    "delete_relations",
    "read_graph",
    "search_nodes",
    "open_nodes",
  ])
    assert.ok(tools.has(tool), tool);
  assert.ok(replayed.filter((r) => r.real.result?.isError).length >= 2, "error cases are replayed too");
  assert.ok(
    replayed.some((r) => r.call.read === "memory://knowledge-graph"),
    "the resource is read too",
  );
  const differing = replayed
    .filter((r) => r.differences.length > 0)
    .map((r) => `${r.call.tool}: ${r.differences.join("; ")}\n  real ${answerText(r.real)}\n  fake ${answerText(r.fake)}`);
  assert.deepEqual(differing, []);
});

checkRecipeFakes({ test, manifest: MANIFEST, record: RECORD, requireObserved: true });
