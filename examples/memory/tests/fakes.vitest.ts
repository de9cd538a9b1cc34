// The memory fake's own tests under vitest: the same as fakes.test.js (node:test).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
import { checkRecipeFakes } from "eval-simulate/checks";
import { answerText, readCalls, replay } from "eval-simulate/fidelity";
import { callTool, recording, withFakes } from "eval-simulate/testing";
import { afterAll, beforeAll, expect, test } from "vitest";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const CALLS = fileURLToPath(new URL("./replay-calls.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const SERVER = fileURLToPath(import.meta.resolve("@modelcontextprotocol/server-memory/dist/index.js"));

const { globalSetup, globalTeardown } = recording(RECORD);
beforeAll(globalSetup);
afterAll(globalTeardown);

const calls = readCalls(CALLS);

test("the session is answered by the fake and recorded", async () => {
  const { fakes, world } = await loadFakes(MANIFEST);
  await withFakes(
    fakes,
    world,
    undefined,
    async ({ memory, states }) => {
      for (const call of calls.filter((c) => c.read === undefined)) await callTool(memory, call.tool, call.args);
      expect((states.memory.entities as Array<{ name: string }>).map((entity) => entity.name)).toEqual(["Ada Lovelace", "Charles Babbage"]);
    },
    { record: RECORD },
  );
});

test("the real memory server and the fake answer the session the same, byte for byte", async () => {
  const memoryFile = join(mkdtempSync(join(tmpdir(), "memory-replay-")), "memory.jsonl");
  const { calls: replayed } = await replay({
    manifest: MANIFEST,
    calls,
    target: { command: [process.execPath, SERVER], env: { MEMORY_FILE_PATH: memoryFile } },
  });
  expect(replayed.length).toBeGreaterThanOrEqual(15);
  expect(new Set(replayed.map((r) => r.call.tool))).toEqual(
    new Set([
      "create_entities",
      "create_relations",
      "add_observations",
      "delete_entities",
      "delete_observations",
      "delete_relations",
      "read_graph",
      "search_nodes",
      "open_nodes",
      "forget_everything",
      "resources/read",
    ]),
  );
  expect(replayed.filter((r) => r.real.result?.isError).length).toBeGreaterThanOrEqual(2);
  const differing = replayed
    .filter((r) => r.differences.length > 0)
    .map((r) => `${r.call.tool}: ${r.differences.join("; ")}\n  real ${answerText(r.real)}\n  fake ${answerText(r.fake)}`);
  expect(differing).toEqual([]);
}, 120_000);

checkRecipeFakes({ test, manifest: MANIFEST, record: RECORD, requireObserved: true });
