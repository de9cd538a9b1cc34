import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { startServices } from "../../engine/serve/host/start-services.js";
import { toolsOf, type ToolRegistrar } from "../../engine/author/fakes/index.js";
import { call, callTool, connect, recording, ToolCallError, withFakes } from "../../engine/entries/testing.js";
import * as notes from "../fixtures/checks-typescript/index.js";
import { CLOCK, MANIFEST } from "../fixtures/checks-valid/record.js";

const temporary = (name: string) => join(mkdtempSync(join(tmpdir(), "eval-simulate-testing-")), name);

describe("withFakes", () => {
  it("passes a client per fake, the states and the services, and closes them after", async () => {
    const { fakes, world } = await loadFakes(MANIFEST, { clock: CLOCK });
    let url = "";
    const created = await withFakes(
      fakes,
      world,
      "empty",
      async ({ notes: client, states, services }) => {
        url = services.url("notes");
        expect(services.scenario).toBe("empty");
        expect(await call(client, "create-note", { title: "Renewal" })).toBe('Note created! {"id":"note-1","title":"Renewal"}');
        return states.notes.notes;
      },
      { clock: CLOCK },
    );
    expect(created).toEqual([{ id: "note-1", title: "Renewal" }]);
    await expect(fetch(url, { method: "POST" })).rejects.toThrow();
  });

  it("closes everything when the function throws, and rethrows its error", async () => {
    let url = "";
    const failing = withFakes({ notes }, notes.world, "quiet", ({ services }) => {
      url = services.url("notes");
      throw new Error("the test failed");
    });
    await expect(failing).rejects.toThrow("the test failed");
    await expect(fetch(url, { method: "POST" })).rejects.toThrow();
  });

  it("records every call to the file it is given", async () => {
    const record = temporary("calls.jsonl");
    await withFakes({ notes }, notes.world, "quiet", ({ notes: client }) => call(client, "list-notes", {}), { record });
    expect(JSON.parse(readFileSync(record, "utf8"))).toEqual({
      server: "notes",
      tool: "list-notes",
      args: {},
      result: { content: [{ type: "text", text: '{"notes":[]}' }] },
    });
  });

  it("refuses a fake named like what it passes beside the clients", async () => {
    await expect(
      withFakes(
        { states: notes },
        () => ({ states: {} }),
        undefined,
        () => undefined,
      ),
    ).rejects.toThrow(/cannot be named "states"/);
  });
});

describe("callTool and call", () => {
  it("read a result: text, tool error, structured content and the decoded answer", async () => {
    const { fakes, world } = await loadFakes(MANIFEST, { clock: CLOCK });
    await withFakes(fakes, world, "quiet", async ({ notes: client }) => {
      const got = await callTool(client, "get-note", { id: "note-1" });
      expect(got).toEqual({
        text: '{"id":"note-1","title":"Kickoff"}',
        isError: false,
        structured: { id: "note-1", title: "Kickoff" },
        value: { id: "note-1", title: "Kickoff" },
      });
      expect(await callTool(client, "get-note", { id: "note-9" })).toEqual({ text: "No note note-9", isError: true });
      expect((await callTool(client, "list-notes", {})).value).toEqual({ notes: [{ id: "note-1", title: "Kickoff" }] });
      const refused = call(client, "get-note", { id: "note-9" });
      await expect(refused).rejects.toBeInstanceOf(ToolCallError);
      await expect(refused).rejects.toThrow(/^No note note-9$/);
      await expect(callTool(client, "delete-note", { id: "note-1" })).rejects.toThrow(/Tool delete-note not found/);
    });
  });

  it("throws when a successful answer is outside the tool's contract", async () => {
    const offContract = {
      ...notes,
      register(server: ToolRegistrar, state: { notes: unknown[] }) {
        const { config, answer } = toolsOf(notes.contract);
        server.registerTool("list-notes", config("list-notes"), async () => answer("list-notes", { items: state.notes }));
        server.registerTool("create-note", config("create-note"), async () => answer("create-note", { id: "n" }));
        server.registerTool("list-templates", config("list-templates"), async () => answer("list-templates", "Meeting"));
      },
    };
    await withFakes({ notes: offContract }, notes.world, "quiet", async ({ notes: client }) => {
      await expect(callTool(client, "list-notes", {})).rejects.toThrow(
        /^\[eval-simulate\] notes\/list-notes answered outside its contract: the answer does not match its schema: data must have required property 'notes'/,
      );
      expect(await call(client, "create-note", { title: "x" })).toBe('Note created! {"id":"n"}');
    });
  });

  it("checks answers of services started elsewhere when connect is given the fakes", async () => {
    const { fakes, world } = await loadFakes(MANIFEST, { clock: CLOCK });
    const services = await startServices(fakes, { world, clock: CLOCK });
    try {
      const client = await connect(services, "notes", { fakes });
      expect((await callTool(client, "create-note", { title: "Plan" })).value).toEqual({ id: "note-2", title: "Plan" });
      const unchecked = await connect(services, "notes");
      expect((await callTool(unchecked, "list-templates", {})).value).toBeUndefined();
      await Promise.all([client.close(), unchecked.close()]);
    } finally {
      await services.close();
    }
  });
});

describe("recording", () => {
  it("empties the file before the run and sorts its lines after", () => {
    const file = temporary("nested/responses.jsonl");
    const { globalSetup, globalTeardown } = recording(file);
    globalSetup();
    expect(readFileSync(file, "utf8")).toBe("");
    writeFileSync(file, '{"server":"b"}\n{"server":"a"}\n\n{"server":"c"}\n');
    globalTeardown();
    expect(readFileSync(file, "utf8")).toBe('{"server":"a"}\n{"server":"b"}\n{"server":"c"}\n');
  });

  it("accepts a file: URL and leaves a missing file missing", () => {
    const file = temporary("responses.jsonl");
    recording(new URL(`file://${file}`)).globalTeardown();
    expect(existsSync(file)).toBe(false);
  });
});
