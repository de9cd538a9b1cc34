import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answered } from "../../engine/entries/answers.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { readRecord } from "../../engine/entries/verify.js";
import { CLOCK, textOf } from "../support/services.js";
import { exampleManifest } from "../support/examples.js";
import { recordRun } from "../support/recorded-run.js";

const mailRun = () =>
  recordRun(
    exampleManifest("mail"),
    async ({ mail }) => {
      const sent = await mail.callTool({ name: "send-email", arguments: { to: "dana.whitfield@acme.example", subject: "Renewal", text: "Hi Dana" } });
      const id = JSON.parse(textOf(sent).replace("Email sent successfully! ", "")).id;
      await mail.callTool({ name: "send-email", arguments: { from: "news@news.northwind.example", to: "a@b.example", subject: "News", text: "x" } });
      await mail.callTool({ name: "send-email", arguments: { to: "not-an-email", subject: "x", text: "x" } });
      await mail.callTool({ name: "list-emails", arguments: { limit: 1 } });
      await mail.callTool({ name: "get-email", arguments: { id } });
      await mail.callTool({ name: "list-audiences", arguments: {} }).catch(() => undefined);
    },
    { serve: "in-process" },
  );

const answersJson = (manifestDir: string, id: string) => JSON.parse(readFileSync(join(manifestDir, "mcp", id, "answers.json"), "utf8"));

describe("answered", () => {
  it("decodes every answer the fake gave by the tool's answer format, leaving refused calls out", async () => {
    const run = await mailRun();
    const calls = readRecord(run.record);
    expect(calls).toHaveLength(6);
    const answers = answered(answersJson(run.manifestDir, "mail"), calls);
    expect(answers.map((a) => a.name)).toEqual(["send-email", "list-emails", "get-email"]);
    const [sent, listed, read] = answers;
    expect(sent).toEqual({
      name: "send-email",
      args: { to: "dana.whitfield@acme.example", subject: "Renewal", text: "Hi Dana" },
      result: { id: expect.any(String) },
    });
    expect(listed.result).toMatchObject({ object: "list", has_more: true, data: [{ id: (sent.result as { id: string }).id, subject: "Renewal" }] });
    expect(read.result).toMatch(/^Email [0-9a-f-]{36}\n/);
    expect(read.result).toContain("\nSubject: Renewal\n");
  });

  it("reads structured content for a tool with an output schema and TOON for a toon answer, by the served fake's manifest", async () => {
    const run = await recordRun(
      exampleManifest("crm"),
      async ({ crm }) => {
        const listed = await crm.callTool({ name: "list-records", arguments: { object: "companies", limit: 1 } });
        const id = textOf(listed).match(/[0-9a-f]{8}-[0-9a-f-]{27}/)?.[0];
        await crm.callTool({ name: "get-record", arguments: { object: "companies", record_id: id } });
      },
      { serve: "in-process" },
    );
    const { fakes } = await loadFakes(exampleManifest("crm"), { clock: CLOCK });
    const [listed, record] = answered(fakes.crm, readRecord(run.record));
    expect(listed.result).toMatchObject({ records: [{ id: expect.any(String) }], has_more: true });
    expect(record.result).toMatchObject({ object: "companies", record_id: (listed.result as { records: Array<{ id: string }> }).records[0].id });
  });

  it("skips the calls of other fakes when the contract names its fake", async () => {
    const run = await mailRun();
    const { fakes } = await loadFakes(exampleManifest("mail"), { clock: CLOCK });
    const other = { server: "crm", tool: "list-notes", args: {}, result: { content: [{ type: "text", text: "notes[0]:" }] } };
    expect(answered(fakes.mail.manifest, [other, ...readRecord(run.record)])).toHaveLength(3);
  });

  it("throws, naming the tool and the problem, on a successful answer outside the contract", async () => {
    const run = await mailRun();
    const calls = readRecord(run.record).map((call) =>
      "tool" in call && call.tool === "send-email" && !(call.result as { isError?: boolean }).isError
        ? { ...call, result: { content: [{ type: "text", text: '{"id":"not-prefixed"}' }] } }
        : call,
    );
    expect(() => answered(answersJson(run.manifestDir, "mail"), calls)).toThrow(
      /\[eval-simulate\] "send-email" answered call 0 outside its contract: the answer does not start with its prefix "Email sent successfully! "/,
    );
  });

  it("throws on a successful answer that breaks the answer's schema", () => {
    const contract = { "get-total": { answer: { format: "json" as const, schema: { type: "object", required: ["total"] } } } };
    const calls = [{ name: "get-total", args: {}, result: { content: [{ type: "text", text: '{"sum":3}' }] } }];
    expect(() => answered(contract, calls)).toThrow(/"get-total" answered call 0 outside its contract: the answer does not match its schema/);
  });

  it("throws on a successful answer from a tool the contract does not have", () => {
    const calls = [{ server: "mail", tool: "list-audiences", args: {}, result: { content: [{ type: "text", text: "[]" }] } }];
    expect(() => answered({ "list-emails": { format: "json" } }, calls)).toThrow(/"list-audiences" answered call 0, but the contract has no tool of that name/);
  });
});
