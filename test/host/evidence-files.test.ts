import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connect, SERVE_FIXTURE, serve, textOf } from "../support/services.js";
import { loadState } from "../../engine/entries/verify.js";

describe("what the host writes for the checks", () => {
  it("records each call as one JSON line: args as sent, the result, and JSON-RPC errors", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-"));
    const record = join(dir, "calls.jsonl");
    const services = await serve(SERVE_FIXTURE, { record });
    const client = await connect(services.url("notes"));
    await client.callTool({ name: "list-notes", arguments: { limit: 1 } });
    await client.callTool({ name: "create-note", arguments: {} });
    await client.callTool({ name: "nope", arguments: { a: 1 } }).catch(() => undefined);
    await client.close();
    await services.close();
    const lines = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({
      server: "notes",
      tool: "list-notes",
      args: { limit: 1 },
      result: { content: [{ type: "text", text: "notes[1]{id,title}:\n  note-1,Kickoff\nlimit: 1" }] },
    });
    expect(lines[1]).toMatchObject({ server: "notes", tool: "create-note", args: {}, result: { isError: true } });
    expect(lines[2]).toEqual({ server: "notes", tool: "nope", args: { a: 1 }, result: { error: { code: -32602, message: "Tool nope not found" } } });
  });

  it("writes each fake's manifest and answers for checks that do not run TypeScript", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-"));
    const services = await serve(SERVE_FIXTURE, { manifestDir: dir });
    await services.close();
    const manifest = JSON.parse(readFileSync(join(dir, "mcp/notes/manifest.json"), "utf8"));
    expect(manifest.entities).toEqual(["notes", "counter"]);
    expect(manifest.tools["create-note"]).toEqual({ kind: "stateful", reads: [], writes: ["notes"] });
    const answers = JSON.parse(readFileSync(join(dir, "mcp/notes/answers.json"), "utf8"));
    expect(answers["create-note"]).toMatchObject({ format: "prefixed_json", prefix: "Note created! ", suffix: " (saved)" });
    expect(answers["get-note"]).toMatchObject({ format: "json", structured: true });
  });

  it("keeps the state file from the start and through every change (snapshot and log), and writes the initial state once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-"));
    const stateFile = join(dir, "state.json");
    const initialStateFile = join(dir, "initial.json");
    const services = await serve(SERVE_FIXTURE, { stateFile, initialStateFile });
    expect(JSON.parse(readFileSync(stateFile, "utf8")).notes.counter).toBe(0);
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "bump", arguments: { by: 2 } });
    expect(textOf(result)).toBe('{"counter":2}');
    expect(loadState(stateFile).notes.counter).toBe(2);
    expect(JSON.parse(readFileSync(initialStateFile, "utf8")).notes.counter).toBe(0);
    const admin = await fetch(`http://127.0.0.1:${services.port}/notes/admin/state`);
    expect((await admin.json()).counter).toBe(2);
    await client.close();
    await services.close();
  });

  it("refuses to resume a run whose states lack a fake", async () => {
    await expect(serve(SERVE_FIXTURE, { resume: { states: {}, initial: {} } })).rejects.toThrow(/cannot resume: states lacks "notes", initial lacks "notes"/);
  });
});
