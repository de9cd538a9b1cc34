// The mail fake's own tests under vitest: the same as fakes.test.js (node:test), so either
// runner keeps the same responses.jsonl.
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
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
const email = { to: "dana.whitfield@acme.example", subject: "Your order form", text: "Hi Dana, the revised order form is attached." };

test("a blocked send is recorded as an attempt, not as an email", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "quiet",
    async ({ mail, states }) => {
      await expect(call(mail, "send-email", { ...email, from: "news@news.northwind.example" })).rejects.toThrow(
        /The news\.northwind\.example domain is not verified/,
      );
      expect((states.mail.sendAttempts as unknown[]).at(-1)).toMatchObject({ outcome: "rejected", to: email.to });
      expect(states.mail.sendAttempts).toHaveLength(6);
      expect(states.mail.emails).toHaveLength(4);
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
      const { id } = (await callTool(mail, "send-email", email)).value as { id: string };
      const listed = (await callTool(mail, "list-emails", { limit: 2 })).value as { data: Array<{ id: string }> };
      expect(listed.data[0].id).toBe(id);
      const read = await call(mail, "get-email", { id });
      expect(read.split("\n")[0]).toBe(`Email ${id}`);
      expect(read).toMatch(/Subject: Your order form/);
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
      const { id } = (await callTool(mail, "send-email", { ...email, scheduledAt: "2026-10-02T08:00:00.000Z" })).value as { id: string };
      await call(mail, "cancel-email", { id });
      await expect(call(mail, "cancel-email", { id })).rejects.toThrow(/it is canceled, and only a scheduled email can be/);
    },
    options,
  );
});

checkRecipeFakes({ test, manifest: MANIFEST, clock: CLOCK, record: RECORD });
