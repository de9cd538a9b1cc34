import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { changedEntities, loadManifests, readRecord, writeAttempts } from "../../engine/entries/verify.js";
import { textOf } from "../support/services.js";
import { exampleManifest } from "../support/examples.js";
import { type RecordedRun, recordRun } from "../support/recorded-run.js";

/** What a Recipe's two shared checks say about a finished run, read from its files only. */
function verdict(run: RecordedRun) {
  const manifests = loadManifests(run.manifestDir);
  const calls = readRecord(run.record);
  return {
    calls,
    changed: changedEntities(run.states, manifests),
    attempts: writeAttempts(calls, manifests).map((call) => `${call.server}/${call.tool}`),
  };
}

/** The id of a seeded record, looked up the way an agent would. */
async function recordId(crm: Client, object: string, query: string): Promise<string> {
  const result = await crm.callTool({ name: "search-records", arguments: { object, query } });
  return JSON.parse(textOf(result)).records[0].id;
}

describe("checking a recorded run of the examples", () => {
  it("reports no changed entity and no write attempt for a run that only reads", async () => {
    const run = await recordRun(
      exampleManifest("crm"),
      async ({ crm }) => {
        await crm.callTool({ name: "list-records", arguments: { object: "deals" } });
        const id = await recordId(crm, "companies", "acme");
        await crm.callTool({ name: "get-record", arguments: { object: "companies", record_id: id } });
        await crm.callTool({ name: "list-notes", arguments: {} });
      },
      { serve: "in-process" },
    );
    const { calls, changed, attempts } = verdict(run);
    expect(calls).toHaveLength(4);
    expect(changed).toEqual([]);
    expect(attempts).toEqual([]);
  });

  it("counts a write refused by input validation as an attempt that changed nothing", async () => {
    const run = await recordRun(
      exampleManifest("crm"),
      async ({ crm }) => {
        const refused = await crm.callTool({ name: "create-note", arguments: { parent_object: "companies", title: "No parent id" } });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(/^Input validation error/);
      },
      { serve: "in-process" },
    );
    const { changed, attempts } = verdict(run);
    expect(attempts).toEqual(["crm/create-note"]);
    expect(changed).toEqual([]);
  });

  it("counts a write its handler refuses (fail) as an attempt that changed nothing", async () => {
    const run = await recordRun(
      exampleManifest("crm"),
      async ({ crm }) => {
        const id = await recordId(crm, "people", "dana");
        const refused = await crm.callTool({
          name: "update-record",
          arguments: { object: "people", record_id: id, values: { company_id: "00000000-0000-4000-8000-000000000000" } },
        });
        expect(refused.isError).toBe(true);
      },
      { serve: "in-process" },
    );
    const { changed, attempts } = verdict(run);
    expect(attempts).toEqual(["crm/update-record"]);
    expect(changed).toEqual([]);
  });

  it("sees the mail fake's rejected send as an attempt that changed only the send attempts", async () => {
    const run = await recordRun(
      exampleManifest("mail"),
      async ({ mail }) => {
        const rejected = await mail.callTool({
          name: "send-email",
          arguments: { from: "news@news.northwind.example", to: "dana.whitfield@acme.example", subject: "News", text: "Hello" },
        });
        expect(rejected.isError).toBe(true);
        expect(textOf(rejected)).toMatch(/domain is not verified/);
      },
      { serve: "in-process" },
    );
    const { changed, attempts } = verdict(run);
    expect(attempts).toEqual(["mail/send-email"]);
    expect(changed).toEqual(["mail.sendAttempts"]);
  });

  it("sees a write that lands as both an attempt and a change", async () => {
    const run = await recordRun(
      exampleManifest("mail"),
      async ({ mail }) => {
        await mail.callTool({ name: "list-emails", arguments: {} });
        const sent = await mail.callTool({ name: "send-email", arguments: { to: "dana.whitfield@acme.example", subject: "Renewal", text: "Hi Dana" } });
        expect(textOf(sent)).toMatch(/^Email sent successfully! /);
      },
      { serve: "in-process" },
    );
    const { changed, attempts } = verdict(run);
    expect(attempts).toEqual(["mail/send-email"]);
    expect(changed).toEqual(["mail.emails", "mail.sendAttempts"]);
  });

  it("does not see a change undone within the run, though both writes are attempts", async () => {
    const run = await recordRun(
      exampleManifest("crm"),
      async ({ crm }) => {
        const id = await recordId(crm, "people", "tom");
        const args = (job_title: string) => ({ object: "people", record_id: id, values: { job_title } });
        expect((await crm.callTool({ name: "update-record", arguments: args("Staff Engineer") })).isError).toBeFalsy();
        expect((await crm.callTool({ name: "update-record", arguments: args("Data Engineering Lead") })).isError).toBeFalsy();
      },
      { serve: "in-process" },
    );
    const { changed, attempts } = verdict(run);
    expect(attempts).toEqual(["crm/update-record", "crm/update-record"]);
    expect(changed).toEqual([]);
  });

  it("does not count a call to a tool the fake does not serve (a JSON-RPC error) as a write attempt", async () => {
    const run = await recordRun(
      exampleManifest("crm"),
      async ({ crm }) => {
        // Captured but left off the allow-list, so the fake answers "Tool delete-record not found".
        await expect(crm.callTool({ name: "delete-record", arguments: {} })).rejects.toMatchObject({ code: -32602 });
      },
      { serve: "in-process" },
    );
    const { calls, attempts } = verdict(run);
    expect(calls).toEqual([expect.objectContaining({ server: "crm", tool: "delete-record", result: { error: expect.objectContaining({ code: -32602 }) } })]);
    expect(attempts).toEqual([]);
  });

  it("reads the states the run wrote when given the fakes.yaml instead of the manifest dir", async () => {
    const run = await recordRun(
      exampleManifest("crm"),
      async ({ crm }) => {
        await crm.callTool({ name: "create-task", arguments: { content: "Call Dana about the renewal" } });
      },
      { serve: "in-process" },
    );
    const manifests = loadManifests(run.manifest);
    expect(changedEntities(run.states, manifests)).toEqual(["crm.tasks"]);
    expect(writeAttempts(readRecord(run.record), manifests).map((call) => call.tool)).toEqual(["create-task"]);
  });
});
