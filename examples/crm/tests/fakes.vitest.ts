// The CRM fake's own tests under vitest: the same as fakes.test.js (node:test), so either
// runner keeps the same responses.jsonl.
import { fileURLToPath } from "node:url";
import { labelId, loadFakes } from "eval-simulate";
import { checkRecipeFakes } from "eval-simulate/checks";
import { call, callTool, recording, withFakes } from "eval-simulate/testing";
import { afterAll, beforeAll, expect, test } from "vitest";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const CLOCK = "2026-10-01T09:00:00.000Z";
const options = { clock: CLOCK, record: RECORD };

const { globalSetup, globalTeardown } = recording(RECORD);
beforeAll(globalSetup);
afterAll(globalTeardown);

const loaded = loadFakes(MANIFEST, { clock: CLOCK });
const acmeDeal = labelId("deal-acme");

type Note = { title: string };
type Deal = { owner_email?: string };

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
      expect((value as { notes: Note[] }).notes.map((n) => n.title)).toEqual(["Order form sent", "Renewal call with Dana"]);
      expect(states.crm.notes).toHaveLength(3);
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
      expect(structured).toMatchObject({ values: { stage: "negotiation" }, web_url: `https://app.attio.example/northwind/deals/record/${acmeDeal}` });
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
      await expect(call(crm, "create-note", note)).rejects.toThrow(`No deals record has the ID ${acmeDeal}.`);
      expect(states.crm.notes).toEqual([]);
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
    const owners = (world.crm.deals as Deal[]).map((deal) => deal.owner_email).filter((owner) => owner !== undefined);
    for (const owner of owners) if (!owner.endsWith("@northwind.example")) throw new Error(`a deal is owned by ${owner}, who is not on the team`);
  },
});
