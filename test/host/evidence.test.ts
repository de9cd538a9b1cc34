import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connect, SERVE_FIXTURE, serve, textOf } from "../support/services.js";

const temp = () => mkdtempSync(join(tmpdir(), "eval-simulate-"));

describe("the journal", () => {
  it("never shows a redacted field: not in the journal, the record or /admin/calls", async () => {
    const record = join(temp(), "calls.jsonl");
    const services = await serve(SERVE_FIXTURE, { record });
    const client = await connect(services.url("notes"));
    await client.callTool({ name: "login", arguments: { user: "ada", apiKey: "k-123-secret", accessCode: "c-456-secret" } });
    await client.close();
    const admin = await (await fetch(`http://127.0.0.1:${services.port}/notes/admin/calls`)).text();
    const journal = JSON.stringify(services.calls("notes"));
    await services.close();
    const recorded = readFileSync(record, "utf8");
    for (const evidence of [admin, journal, recorded]) {
      expect(evidence).not.toContain("k-123-secret");
      expect(evidence).not.toContain("c-456-secret");
      expect(evidence).not.toContain("t-secret");
      expect(evidence).toContain("[REDACTED]");
      expect(evidence).toContain("ada");
    }
    const [entry] = services.calls("notes");
    expect(entry).toMatchObject({ fake: "notes", kind: "mcp", name: "login", status: "ok", matched: true, committed: false });
    expect(JSON.parse(entry.input.text)).toEqual({ user: "ada", apiKey: "[REDACTED]", accessCode: "[REDACTED]" });
    expect(JSON.parse(entry.logs[0].text)).toEqual({ apiKey: "[REDACTED]" });
  });

  it("keeps bounded snapshots: a long answer is cut and flagged", async () => {
    const services = await serve(SERVE_FIXTURE);
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "dump", arguments: { size: 20_000 } });
    expect(textOf(result)).toHaveLength(20_000);
    const [entry] = services.calls("notes");
    expect(entry.output.truncated).toBe(true);
    expect(entry.output.text).toHaveLength(16_000);
    expect(entry.input).toEqual({ text: '{"size":20000}', format: "json", truncated: false });
    await client.close();
    await services.close();
  });

  it("keeps only the last N calls and filters by tool, status and since", async () => {
    const services = await serve(SERVE_FIXTURE, { journalLimit: 3 });
    const client = await connect(services.url("notes"));
    await client.callTool({ name: "bump", arguments: {} });
    await client.callTool({ name: "create-note", arguments: {} });
    await client.callTool({ name: "export-notes", arguments: {} });
    await client.callTool({ name: "bump", arguments: {} });
    await client.callTool({ name: "missing-tool", arguments: {} }).catch(() => undefined);
    await client.close();
    expect(services.calls().map((c) => c.name)).toEqual(["export-notes", "bump", "missing-tool"]);
    const base = `http://127.0.0.1:${services.port}/notes/admin/calls`;
    const get = async (query: string) => ((await (await fetch(`${base}?${query}`)).json()) as { calls: Array<{ name: string; seq: number }> }).calls;
    expect((await get("tool=bump")).map((c) => c.seq)).toEqual([4]);
    expect((await get("status=rpc_error")).map((c) => c.name)).toEqual(["missing-tool"]);
    expect((await get("since=4")).map((c) => c.name)).toEqual(["missing-tool"]);
    await services.close();
  });
});

describe("stubs", () => {
  it("plays a sequence in order, then repeats its last outcome, changing no state", async () => {
    const services = await serve(SERVE_FIXTURE, { scenario: "flaky", warn: () => {} });
    const client = await connect(services.url("notes"));
    const texts: string[] = [];
    for (let i = 0; i < 4; i++) texts.push(textOf(await client.callTool({ name: "create-note", arguments: { title: `Try ${i}` } })));
    expect(texts).toEqual([
      "Service unavailable",
      "Still unavailable",
      'Note created! {"id":"note-9","title":"Back"} (saved)',
      'Note created! {"id":"note-9","title":"Back"} (saved)',
    ]);
    expect(services.states.notes.notes).toHaveLength(3);
    expect(services.calls("notes").map((c) => c.stub)).toEqual(["outage", "outage", "outage", "outage"]);
    await client.close();
    await services.close();
  });

  it("selects by argument: the first matching stub wins, and only it advances", async () => {
    const services = await serve(SERVE_FIXTURE, { scenario: "flaky", warn: () => {} });
    const client = await connect(services.url("notes"));
    const vip = await client.callTool({ name: "create-note", arguments: { title: "VIP lunch" } });
    expect(textOf(vip)).toBe('Note created! {"id":"note-vip","title":"VIP"} (saved)');
    const other = await client.callTool({ name: "create-note", arguments: { title: "Standup" } });
    expect(textOf(other)).toBe("Service unavailable");
    expect(services.stubs().map((s) => [s.id, s.uses])).toEqual([
      ["vip", 1],
      ["outage", 1],
      ["never", 0],
    ]);
    await client.close();
    await services.close();
  });

  it("never skips input validation", async () => {
    const services = await serve(SERVE_FIXTURE, { scenario: "flaky", warn: () => {} });
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "create-note", arguments: { title: "VIP", owner: "nope" } });
    expect(textOf(result)).toMatch(/^Input validation error/);
    await client.close();
    await services.close();
  });

  it("warns about unused stubs when the services close, and lists them at /admin/stubs", async () => {
    const warnings: string[] = [];
    const services = await serve(SERVE_FIXTURE, { scenario: "flaky", warn: (m) => warnings.push(m) });
    const listed = await (await fetch(`http://127.0.0.1:${services.port}/notes/admin/stubs`)).json();
    expect(listed.stubs).toEqual([
      { id: "vip", fake: "notes", target: "create-note", uses: 0 },
      { id: "outage", fake: "notes", target: "create-note", uses: 0 },
      { id: "never", fake: "notes", target: "export-notes", uses: 0 },
    ]);
    await services.close();
    expect(warnings).toEqual([
      '[eval-simulate] warning: stub "vip" of scenario "flaky" (notes/create-note) was never used',
      '[eval-simulate] warning: stub "outage" of scenario "flaky" (notes/create-note) was never used',
      '[eval-simulate] warning: stub "never" of scenario "flaky" (notes/export-notes) was never used',
    ]);
  });
});

describe("limits and the admin door", () => {
  it("answers a 2 MiB body with 413 and keeps serving", async () => {
    const services = await serve(SERVE_FIXTURE);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "create-note", arguments: { title: "x".repeat(2 * 1024 * 1024) } },
    });
    const response = await fetch(services.url("notes"), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe(-32000);
    expect(services.states.notes.notes).toHaveLength(3);
    expect((await fetch(`http://127.0.0.1:${services.port}/health`)).status).toBe(200);
    await services.close();
  });

  it("locks the admin routes behind a token, leaving /health and the fakes open", async () => {
    const services = await serve(SERVE_FIXTURE, { adminToken: "s3cret" });
    const base = `http://127.0.0.1:${services.port}`;
    for (const route of ["state", "initial-state", "calls", "stubs"]) {
      expect((await fetch(`${base}/notes/admin/${route}`)).status).toBe(401);
      expect((await fetch(`${base}/notes/admin/${route}`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      expect((await fetch(`${base}/notes/admin/${route}`, { headers: { authorization: "Bearer s3cret" } })).status).toBe(200);
    }
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const client = await connect(services.url("notes"));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    await services.close();
  });
});
