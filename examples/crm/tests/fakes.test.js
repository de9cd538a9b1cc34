// The CRM fake's own tests, run by node:test (`node --test examples/*/tests/*.test.js`): a few
// behaviours only this Recipe knows, recorded to responses.jsonl, then the checks every Recipe
// keeps (checkRecipeFakes), which replay that record and hold it to mcp/crm/observed.json.
// fakes.vitest.ts is the same file for vitest.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { labelId, loadFakes } from "eval-simulate";
import { checkRecipeFakes } from "eval-simulate/checks";
import { call, callTool, recording, withFakes } from "eval-simulate/testing";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const CLOCK = "2026-10-01T09:00:00.000Z";
const options = { clock: CLOCK, record: RECORD };

// node:test on Node 20 has no global setup: the one file that records empties it first and
// sorts it last.
const { globalSetup, globalTeardown } = recording(RECORD);
before(globalSetup);
after(globalTeardown);

const loaded = loadFakes(MANIFEST, { clock: CLOCK });
const acmeDeal = labelId("deal-acme");

test("a note written is read back, newest first", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "quiet",
    async ({ crm, states }) => {
      const note = { parent_object: "deals", parent_record_id: acmeDeal, title: "Order form sent", content: "Sent Dana the revised order form." };
      await call(crm, "create-note", note);
      const { value } = await callTool(crm, "list-notes", { parent_record_id: acmeDeal });
      assert.deepEqual(
        value.notes.map((n) => n.title),
        ["Order form sent", "Renewal call with Dana"],
      );
      assert.equal(states.crm.notes.length, 3);
    },
    options,
  );
});

test("a record is read as structured content", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "quiet",
    async ({ crm }) => {
      const { structured } = await callTool(crm, "get-record", { object: "deals", record_id: acmeDeal });
      assert.equal(structured.values.stage, "negotiation");
      assert.equal(structured.web_url, `https://app.attio.example/northwind/deals/record/${acmeDeal}`);
    },
    options,
  );
});

test("a note about a record that does not exist is refused and changes nothing", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "empty-workspace",
    async ({ crm, states }) => {
      const note = { parent_object: "deals", parent_record_id: acmeDeal, title: "Lost", content: "" };
      await assert.rejects(call(crm, "create-note", note), { message: `No deals record has the ID ${acmeDeal}.` });
      assert.deepEqual(states.crm.notes, []);
    },
    options,
  );
});

checkRecipeFakes({
  test,
  manifest: MANIFEST,
  clock: CLOCK,
  record: RECORD,
  consistent(world) {
    const owners = world.crm.deals.map((deal) => deal.owner_email).filter(Boolean);
    for (const owner of owners) if (!owner.endsWith("@northwind.example")) throw new Error(`a deal is owned by ${owner}, who is not on the team`);
  },
});
