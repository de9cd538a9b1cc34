import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readResult } from "../../engine/author/contract/index.js";
import type { McpFake } from "../../engine/author/fakes/fakes.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import type { Services } from "../../engine/serve/host/start-services.js";
import { CLOCK, connect, SERVE_FIXTURE, serve, textOf } from "../support/services.js";

const captured = JSON.parse(readFileSync(new URL("../fixtures/serve/tools.json", import.meta.url), "utf8")).tools;

describe.each(["legacy", "auto"] as const)("an MCP fake served to the official client (%s negotiation)", (mode) => {
  let services: Services;
  beforeAll(async () => {
    services = await serve(SERVE_FIXTURE);
  });
  afterAll(() => services.close());

  it("lists the allowed tools exactly as captured, in captured order", async () => {
    const client = await connect(services.url("notes"), mode);
    const { tools } = await client.listTools();
    expect(tools).toEqual(captured);
    await client.close();
  });

  it("refuses an argument in the wrong format with the SDK's wording and changes no state", async () => {
    const client = await connect(services.url("notes"), mode);
    const before = structuredClone(services.states.notes);
    const result = await client.callTool({ name: "create-note", arguments: { title: "Plan", owner: "not-an-email" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Input validation error: Invalid arguments for tool create-note: data/owner must match format "email"');
    expect(services.states.notes).toEqual(before);
    await client.close();
  });

  it("refuses a call missing a required argument and changes no state", async () => {
    const client = await connect(services.url("notes"), mode);
    const before = structuredClone(services.states.notes);
    const result = await client.callTool({ name: "create-note", arguments: {} });
    expect(textOf(result)).toBe("Input validation error: Invalid arguments for tool create-note: data must have required property 'title'");
    expect(services.states.notes).toEqual(before);
    await client.close();
  });

  it("fills the defaults the input schema states", async () => {
    const client = await connect(services.url("notes"), mode);
    const result = await client.callTool({ name: "list-notes", arguments: {} });
    const read = readResult({ answer: { format: "toon" } }, { text: textOf(result) });
    expect(read).toMatchObject({ ok: true, value: { limit: 2, notes: [{ id: "note-1" }, { id: "note-2" }] } });
    await client.close();
  });

  it("answers a tool it does not serve with JSON-RPC -32602", async () => {
    const client = await connect(services.url("notes"), mode);
    await expect(client.callTool({ name: "delete-everything", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Tool delete-everything not found"),
    });
    await client.close();
  });

  it("turns an answer outside the output schema into a tool error", async () => {
    const client = await connect(services.url("notes"), mode);
    const result = await client.callTool({ name: "broken-output", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Output validation error: Invalid structured content for tool broken-output: data/count must be integer");
    await client.close();
  });
});

describe("answers in every format", () => {
  let services: Services;
  beforeAll(async () => {
    services = await serve(SERVE_FIXTURE, { scenario: "quiet" });
  });
  afterAll(() => services.close());

  it("reads each answer back with readResult: TOON, prefixed JSON, text and structured", async () => {
    const { fakes } = await loadFakes(SERVE_FIXTURE, { clock: CLOCK });
    const notes = fakes.notes as McpFake;
    const entry = (name: string) => notes.manifest.tools.find((t) => t.name === name)!;
    const client = await connect(services.url("notes"));

    const toon = await client.callTool({ name: "list-notes", arguments: { limit: 1, order: "desc" } });
    expect(textOf(toon)).toBe("notes[1]{id,title}:\n  note-3,Retro\nlimit: 1");
    expect(readResult(entry("list-notes"), { text: textOf(toon) })).toEqual({ ok: true, value: { notes: [{ id: "note-3", title: "Retro" }], limit: 1 } });

    const prefixed = await client.callTool({ name: "create-note", arguments: { title: "Plan" } });
    expect(textOf(prefixed)).toBe('Note created! {"id":"note-4","title":"Plan"} (saved)');
    expect(readResult(entry("create-note"), { text: textOf(prefixed) })).toEqual({ ok: true, value: { id: "note-4", title: "Plan" } });

    const text = await client.callTool({ name: "export-notes", arguments: {} });
    expect(readResult(entry("export-notes"), { text: textOf(text) })).toEqual({ ok: true, value: "Kickoff\nReview\nRetro\nPlan" });

    const structured = await client.callTool({ name: "get-note", arguments: { id: "note-2" } });
    expect(structured.structuredContent).toEqual({ id: "note-2", title: "Review" });
    expect(readResult(entry("get-note"), { text: textOf(structured), structured: structured.structuredContent })).toEqual({
      ok: true,
      value: { id: "note-2", title: "Review" },
    });
    await client.close();
  });

  it("answers an empty TOON list in the length form real servers write", async () => {
    const empty = await serve(SERVE_FIXTURE, { scenario: "empty" });
    const client = await connect(empty.url("notes"));
    const result = await client.callTool({ name: "list-notes", arguments: {} });
    expect(textOf(result)).toBe("notes[0]:\nlimit: 2");
    await client.close();
    await empty.close();
  });
});
