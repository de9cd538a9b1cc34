// The mail fake's own tests, run by node:test (`node --test examples/*/tests/*.test.js`): a few
// behaviours only this Recipe knows, recorded to responses.jsonl, then the checks every Recipe
// keeps (checkRecipeFakes), which replay that record and hold it to mcp/mail/observed.json.
// fakes.vitest.ts is the same file for vitest.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
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
const email = { to: "dana.whitfield@acme.example", subject: "Your order form", text: "Hi Dana, the revised order form is attached." };

test("a blocked send is recorded as an attempt, not as an email", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "quiet",
    async ({ mail, states }) => {
      const sent = call(mail, "send-email", { ...email, from: "news@news.northwind.example" });
      await assert.rejects(sent, /The news\.northwind\.example domain is not verified/);
      assert.deepEqual({ outcome: states.mail.sendAttempts.at(-1).outcome, to: states.mail.sendAttempts.at(-1).to }, { outcome: "rejected", to: email.to });
      assert.equal(states.mail.sendAttempts.length, 6);
      assert.equal(states.mail.emails.length, 4);
    },
    options,
  );
});

test("a sent email is listed first and read back", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "quiet",
    async ({ mail }) => {
      const { value } = await callTool(mail, "send-email", email);
      const listed = await callTool(mail, "list-emails", { limit: 2 });
      assert.equal(listed.value.data[0].id, value.id);
      const read = await call(mail, "get-email", { id: value.id });
      assert.equal(read.split("\n")[0], `Email ${value.id}`);
      assert.match(read, /Subject: Your order form/);
    },
    options,
  );
});

test("a scheduled email is canceled once", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "quiet",
    async ({ mail }) => {
      const { value } = await callTool(mail, "send-email", { ...email, scheduledAt: "2026-10-02T08:00:00.000Z" });
      await call(mail, "cancel-email", { id: value.id });
      await assert.rejects(call(mail, "cancel-email", { id: value.id }), /it is canceled, and only a scheduled email can be/);
    },
    options,
  );
});

checkRecipeFakes({ test, manifest: MANIFEST, clock: CLOCK, record: RECORD });
