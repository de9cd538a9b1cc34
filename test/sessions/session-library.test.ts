import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { SessionRegistry } from "../../engine/serve/sessions/session-registry.js";
import { changedEntities, loadManifests, loadState, readRecord, writeAttempts } from "../../engine/entries/verify.js";
import { connect, serve, textOf } from "../support/services.js";

const temp = () => mkdtempSync(join(tmpdir(), "eval-simulate-sessions-"));

describe("services.createSession", () => {
  let services: Services;
  afterEach(() => services?.close());

  it("gives a trial its URLs, its live state, its journal, and its end", async () => {
    services = await serve(undefined, { warn: () => {} });
    const session = await services.createSession({ scenario: "empty", seed: 9 });
    expect(session).toMatchObject({ scenario: "empty", clock: "2026-10-01T09:00:00.000Z", seed: 9 });
    expect(session.url("notes")).toBe(`${services.origin}/s/${session.id}/notes/mcp`);
    expect(session.mcpServers()).toEqual([{ id: "notes", transport: "streamable_http", url: session.url("notes") }]);
    expect(() => session.url("nope")).toThrow(/no MCP fake "nope"/);
    const client = await connect(session.url("notes"), "auto");
    expect(textOf(await client.callTool({ name: "create-note", arguments: { title: "Mine" } }))).toContain('"id":"note-1"');
    await client.close();
    expect(session.states.notes.notes).toEqual([{ id: "note-1", title: "Mine" }]);
    expect(session.initial.notes.notes).toEqual([]);
    expect(session.calls().map((c) => c.name)).toEqual(["create-note"]);
    const closed = await session.close();
    expect(closed).toMatchObject({ id: session.id, calls: 1, states: { notes: { notes: [{ id: "note-1", title: "Mine" }] } } });
    expect(await session.close()).toBe(closed);
    expect(() => session.reset()).toThrow(/no session/);
    await expect(services.createSession({ id: session.id })).resolves.toMatchObject({ id: session.id });
  });

  it("resets and forks from the library, and builds a world at the session's own clock", async () => {
    services = await serve(undefined, { warn: () => {} });
    const session = await services.createSession();
    const client = await connect(session.url("notes"));
    await client.callTool({ name: "bump", arguments: { by: 4 } });
    const fork = await session.fork({ id: "fork-1" });
    expect(fork.initial.notes.counter).toBe(4);
    session.reset();
    expect(session.states.notes.counter).toBe(0);
    expect(session.calls()).toEqual([]);
    expect(fork.states.notes.counter).toBe(4);
    await client.close();
    const later = await services.createSession({ clock: "2027-01-01T00:00:00Z" });
    expect(later.clock).toBe("2027-01-01T00:00:00.000Z");
  });

  it("shares the scenario's frozen starting values between sessions instead of copying them", async () => {
    services = await serve(undefined, { warn: () => {} });
    const [a, b] = await Promise.all([services.createSession(), services.createSession()]);
    expect(a.initial.notes.notes).toBe(b.initial.notes.notes);
    expect(Object.isFrozen(a.states.notes.notes)).toBe(true);
    expect(a.states.notes).not.toBe(b.states.notes);
  });

  it("hands eval-simulate/verify a session's states and record lines as it takes a world's", async () => {
    const dir = temp();
    services = await serve(undefined, {
      warn: () => {},
      record: join(dir, "calls.jsonl"),
      manifestDir: join(dir, "manifests"),
      stateDir: join(dir, "sessions"),
    });
    const [one, two] = await Promise.all([services.createSession({ id: "one" }), services.createSession({ id: "two" })]);
    const client = await connect(one.url("notes"));
    await client.callTool({ name: "bump", arguments: { by: 1 } });
    await client.close();
    const manifests = loadManifests(join(dir, "manifests"));
    expect(changedEntities({ initial: one.initial, final: one.states }, manifests)).toEqual(["notes.counter"]);
    expect(changedEntities({ initial: two.initial, final: two.states }, manifests)).toEqual([]);
    // The files of --state-dir read the same way, while the session lives: snapshot and log.
    const files = (sid: string, kind: string) => loadState(join(dir, "sessions", `${sid}.${kind}.json`));
    expect(changedEntities({ initial: files("one", "initial"), final: files("one", "state") }, manifests)).toEqual(["notes.counter"]);
    // Record lines name their session; readRecord keeps one session's.
    expect(readRecord(join(dir, "calls.jsonl"))).toEqual([expect.objectContaining({ session: "one", server: "notes", tool: "bump" })]);
    expect(writeAttempts(readRecord(join(dir, "calls.jsonl"), { session: "one" }), manifests).map((a) => a.tool)).toEqual(["bump"]);
    expect(readRecord(join(dir, "calls.jsonl"), { session: "two" })).toEqual([]);
    expect(readRecord(join(dir, "calls.jsonl"), { session: null })).toEqual([]);
  });
});

describe("the session registry", () => {
  it("frees an expired session when it is next asked for, between sweeps", async () => {
    const freed: string[] = [];
    const registry = new SessionRegistry({
      templates: {
        get: async () => ({ scenario: "s", clock: "2026-01-01T00:00:00.000Z", initial: { f: {} }, stubs: { copy: () => undefined }, faults: [] }),
      } as never,
      clock: new Date(0),
      sweepMs: 3_600_000,
      makeWorld: (_id, scope) => ({ scope, callCount: () => 0 }),
      onFree: (record, reason) => void freed.push(`${record.id}:${reason}`),
    });
    const record = await registry.create({ id: "brief", ttlSeconds: 0.01 });
    record.lastUsed -= 1000;
    expect(registry.get("brief")).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(freed).toEqual(["brief:expired"]);
    await registry.close();
  });
});

describe("a session's calls through the host as a function", () => {
  it("lands a call sent to services.fetch (no node adapter, body unparsed) in its session, in both eras", async () => {
    const services = await serve(undefined, { warn: () => {} });
    try {
      const session = await services.createSession({ id: "in-process" });
      const eras: Array<Record<string, string>> = [
        { "mcp-protocol-version": "2025-11-25" },
        { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "bump" },
      ];
      for (const [i, era] of eras.entries()) {
        const meta =
          i === 0
            ? {}
            : {
                _meta: {
                  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
                  "io.modelcontextprotocol/clientCapabilities": {},
                },
              };
        const response = await services.fetch(
          new Request(`${services.origin}/s/in-process/notes/mcp`, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...era },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "bump", arguments: { by: 1 }, ...meta } }),
          }),
        );
        expect(response.status).toBe(200);
        await response.text();
      }
      expect(session.states.notes.counter).toBe(2);
      expect(services.states.notes.counter).toBe(0);
    } finally {
      await services.close();
    }
  });
});
