import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examples } from "../support/examples.js";
import { connect, SERVE_FIXTURE, serve, textOf } from "../support/services.js";

const temp = () => mkdtempSync(join(tmpdir(), "eval-simulate-hard-"));

describe("what a client or a handler cannot do", () => {
  it("keeps the evidence of a call whose arguments nest deeper than any stack", async () => {
    const record = join(temp(), "calls.jsonl");
    const services = await serve(SERVE_FIXTURE, { record });
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 300; i++) deep = (deep.x = {}) as Record<string, unknown>;
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "login", arguments: { user: "ada", extra: root } });
    expect(result.isError).toBeFalsy();
    const calls = await fetch(`http://127.0.0.1:${services.port}/notes/admin/calls`);
    expect(calls.status).toBe(200);
    expect(JSON.stringify(services.calls())).toContain("[TOO DEEP]");
    await client.close();
    await services.close();
    expect(readFileSync(record, "utf8")).toContain('"tool":"login"');
  });

  it("keeps a committed call when the state file cannot be written, and says so", async () => {
    const dir = temp();
    const stateFile = join(dir, "state.json");
    const warnings: string[] = [];
    const services = await serve(SERVE_FIXTURE, { stateFile, warn: (m) => warnings.push(m) });
    // A folder where the file should be: the rename that writes it atomically fails (even as root).
    rmSync(stateFile);
    mkdirSync(join(stateFile, "blocker"), { recursive: true });
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "bump", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('{"counter":1}');
    expect(services.states.notes.counter).toBe(1);
    expect(services.calls("notes")[0].committed).toBe(true);
    await client.close();
    // The commit is in the log; the snapshot written at close is what cannot be.
    await services.close();
    expect(warnings.some((w) => w.includes("could not write the state file"))).toBe(true);
  });

  it("refuses a handler's change to the world, which is read-only", async () => {
    const services = await serve(SERVE_FIXTURE);
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "meddle", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("the world is read-only in a handler");
    expect(services.states.notes.counter).toBe(0);
    await client.close();
    await services.close();
  });

  it("refuses a handler that deletes an entity", async () => {
    const services = await serve(SERVE_FIXTURE);
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "erase", arguments: {} });
    expect(textOf(result)).toContain("would delete notes");
    expect(services.states.notes.notes).toHaveLength(3);
    await client.close();
    await services.close();
  });

  it("redacts secrets inside TOON answers and the journal's error text", async () => {
    const record = join(temp(), "calls.jsonl");
    const services = await serve(SERVE_FIXTURE, { record });
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "secret-toon", arguments: {} });
    expect(textOf(result)).toContain("hunter2");
    await client.close();
    await services.close();
    expect(JSON.stringify(services.calls())).not.toContain("hunter2");
    expect(readFileSync(record, "utf8")).not.toContain("hunter2");
  });
});

describe("API fakes' edges", () => {
  const GITHUB = examples().find(([name]) => name === "github")![1];

  it("redacts a form body's secrets and leaves an API's own /admin/... paths to the API", async () => {
    const record = join(temp(), "calls.jsonl");
    const services = await serve(GITHUB, { record, adminToken: "t0ken" });
    const base = services.baseUrl("github");
    const form = await fetch(`${base}/repos/acme/widgets/issues`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "client_id=abc&client_secret=s3cr3t-value",
    });
    expect(form.status).toBe(415);
    const adminPath = await fetch(`${base}/admin/users`);
    expect(adminPath.status).toBe(404);
    expect(await adminPath.json()).toMatchObject({ matched: false });
    await services.close();
    expect(JSON.stringify(services.calls())).not.toContain("s3cr3t-value");
    expect(readFileSync(record, "utf8")).not.toContain("s3cr3t-value");
  });
});
