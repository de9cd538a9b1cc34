import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { connect, SERVE_FIXTURE, serve, textOf } from "../support/services.js";

describe("state is transactional", () => {
  let services: Services;
  beforeEach(async () => {
    services = await serve(SERVE_FIXTURE);
  });
  afterEach(() => services.close());

  it("lands all of 50 concurrent writes from several clients, TypeScript and JSONata", async () => {
    const clients = await Promise.all([1, 2, 3, 4, 5].map(() => connect(services.url("notes"))));
    const calls = Array.from({ length: 50 }, (_, i) => clients[i % clients.length].callTool({ name: i % 2 ? "bump" : "bump-jsonata", arguments: {} }));
    const results = await Promise.all(calls);
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(services.states.notes.counter).toBe(50);
    const seen = results.map((r) => JSON.parse(textOf(r)).counter).sort((a, b) => a - b);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    await Promise.all(clients.map((c) => c.close()));
  });

  it("changes nothing when a handler throws halfway", async () => {
    const client = await connect(services.url("notes"));
    const before = structuredClone(services.states.notes);
    const result = await client.callTool({ name: "explode", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("the handler broke halfway");
    expect(services.states.notes).toEqual(before);
    await client.close();
  });

  it("changes nothing when a guard fails", async () => {
    const client = await connect(services.url("notes"));
    const before = structuredClone(services.states.notes);
    const result = await client.callTool({ name: "create-note", arguments: { title: "forbidden" } });
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "That title is not allowed" }] });
    expect(services.states.notes).toEqual(before);
    await client.close();
  });

  it("refuses a change to an entity the tool does not declare in writes", async () => {
    const client = await connect(services.url("notes"));
    const before = structuredClone(services.states.notes);
    const result = await client.callTool({ name: "sneaky", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("changed state its tool does not declare in writes (counter)");
    expect(services.states.notes).toEqual(before);
    await client.close();
  });

  it("turns a handler past its time limit into a tool error and discards its change", async () => {
    const client = await connect(services.url("notes"));
    const result = await client.callTool({ name: "slow", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("ran past its 500 ms limit");
    expect(services.states.notes.counter).toBe(0);
    await client.close();
  });

  it("ends a runaway JSONata expression as a tool error and keeps serving", async () => {
    const client = await connect(services.url("notes"));
    const [spun, listed] = await Promise.all([
      client.callTool({ name: "spin", arguments: {} }),
      // Another fake's work must not wait behind the loop forever: this call queues after it.
      client.callTool({ name: "export-notes", arguments: {} }),
    ]);
    expect(spun.isError).toBe(true);
    expect(textOf(spun)).toMatch(/500 ms/);
    expect(listed.isError).toBeFalsy();
    const health = await fetch(`http://127.0.0.1:${services.port}/health`);
    expect(await health.json()).toEqual({ ok: true });
    await client.close();
  });

  it("gives every caller the same frozen state: a handler cannot change it outside a call", async () => {
    expect(Object.isFrozen(services.states.notes.notes)).toBe(true);
    expect(() => (services.states.notes.notes as unknown[]).push({})).toThrow(TypeError);
  });
});
