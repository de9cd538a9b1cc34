import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { connect, serve, textOf } from "../support/services.js";

const TOKEN = "admin-secret";

async function post(services: Services, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${services.origin}${path}`, {
    method: "POST",
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function get(services: Services, path: string, init: RequestInit = {}) {
  const response = await fetch(`${services.origin}${path}`, init);
  return { status: response.status, body: await response.json() };
}

/** One tool call in a session, by the official client over HTTP. */
async function callIn(url: string, name: string, args: Record<string, unknown> = {}) {
  const client = await connect(url);
  try {
    const result = await client.callTool({ name, arguments: args });
    return { text: textOf(result), isError: result.isError === true };
  } finally {
    await client.close();
  }
}

describe("sessions over HTTP", () => {
  let services: Services;
  afterEach(() => services?.close());

  it("creates a session from a scenario and answers where its fakes are; GET lists it with its calls", async () => {
    services = await serve(undefined, { warn: () => {} });
    const created = await post(services, "/sessions", { scenario: "empty", seed: 4, ttlSeconds: 60 });
    expect(created.status).toBe(201);
    const sid = created.body.id as string;
    expect(created.body).toMatchObject({
      scenario: "empty",
      clock: "2026-10-01T09:00:00.000Z",
      seed: 4,
      mcpServers: [{ id: "notes", transport: "streamable_http", url: `${services.origin}/s/${sid}/notes/mcp` }],
      apis: {},
    });
    expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.lastUsed)).toBe(60_000);
    const made = await callIn(created.body.mcpServers[0].url, "create-note", { title: "Only here" });
    expect(made.text).toBe('Note created! {"id":"note-1","title":"Only here"} (saved)');
    expect((await get(services, `/s/${sid}/notes/admin/state`)).body.notes).toEqual([{ id: "note-1", title: "Only here" }]);
    expect((await get(services, `/s/${sid}/notes/admin/initial-state`)).body.notes).toEqual([]);
    // The process's own world (scenario quiet) is untouched.
    expect((await get(services, "/notes/admin/state")).body.notes).toHaveLength(3);
    const listed = await get(services, "/sessions");
    expect(listed.body.limit).toBe(10_000);
    expect(listed.body.sessions).toEqual([expect.objectContaining({ id: sid, scenario: "empty", calls: 1 })]);
    expect((await get(services, `/sessions/${sid}`)).body).toMatchObject({ id: sid, calls: 1 });
  });

  it("answers DELETE with the session's final and initial state and its call count, then frees it", async () => {
    services = await serve(undefined, { warn: () => {} });
    const { body: session } = await post(services, "/sessions", { id: "trial-1" });
    await callIn(session.mcpServers[0].url, "bump", { by: 2 });
    const deleted = await get(services, "/sessions/trial-1", { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: "trial-1", calls: 1, states: { notes: { counter: 2 } }, initial: { notes: { counter: 0 } } });
    expect((await get(services, "/sessions/trial-1")).status).toBe(404);
    expect((await get(services, "/sessions")).body.sessions).toEqual([]);
  });

  it("resets a session to its starting state, clearing its journal and stub cursors", async () => {
    services = await serve(undefined, { warn: () => {} });
    const { body: session } = await post(services, "/sessions", { scenario: "flaky" });
    const url = session.mcpServers[0].url;
    expect((await callIn(url, "create-note", { title: "One" })).text).toBe("Service unavailable");
    expect((await callIn(url, "create-note", { title: "Two" })).text).toBe("Still unavailable");
    await callIn(url, "bump", { by: 5 });
    const reset = await post(services, `/sessions/${session.id}/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ id: session.id, calls: 0 });
    expect((await get(services, `/s/${session.id}/notes/admin/state`)).body.counter).toBe(0);
    expect((await get(services, `/s/${session.id}/notes/admin/calls`)).body.calls).toEqual([]);
    expect((await get(services, `/s/${session.id}/notes/admin/stubs`)).body.stubs.find((s: { id: string }) => s.id === "outage").uses).toBe(0);
    // The stub's sequence starts over.
    expect((await callIn(url, "create-note", { title: "Three" })).text).toBe("Service unavailable");
  });

  it("forks a session from its current state: the fork starts there and the two diverge", async () => {
    services = await serve(undefined, { warn: () => {} });
    const { body: parent } = await post(services, "/sessions", {});
    await callIn(parent.mcpServers[0].url, "bump", { by: 3 });
    const forked = await post(services, `/sessions/${parent.id}/fork`, { id: "branch" });
    expect(forked.status).toBe(201);
    expect(forked.body).toMatchObject({ id: "branch", scenario: "quiet", calls: 0 });
    expect((await get(services, "/s/branch/notes/admin/initial-state")).body.counter).toBe(3);
    await callIn(forked.body.mcpServers[0].url, "bump", { by: 10 });
    await callIn(parent.mcpServers[0].url, "bump", { by: 1 });
    expect((await get(services, "/s/branch/notes/admin/state")).body.counter).toBe(13);
    expect((await get(services, `/s/${parent.id}/notes/admin/state`)).body.counter).toBe(4);
    expect((await get(services, "/notes/admin/state")).body.counter).toBe(0);
  });

  it("frees a session idle past its TTL at the next sweep, and then answers 404 naming it", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "eval-simulate-ttl-"));
    services = await serve(undefined, { warn: () => {}, sessionSweepMs: 20, stateDir });
    const { body: short } = await post(services, "/sessions", { id: "short", ttlSeconds: 1 });
    await post(services, "/sessions", { id: "long", ttlSeconds: 600 });
    await callIn(short.mcpServers[0].url, "bump", { by: 7 });
    await vi.waitFor(async () => expect((await get(services, "/sessions")).body.sessions.map((s: { id: string }) => s.id)).toEqual(["long"]), {
      timeout: 5000,
      interval: 25,
    });
    const gone = await get(services, "/s/short/notes/admin/state");
    expect(gone).toEqual({ status: 404, body: { error: "unknown_session", session: "short", message: expect.stringContaining('no session "short"') } });
    // Its last state stays in the state dir.
    expect(JSON.parse(readFileSync(join(stateDir, "short.state.json"), "utf8")).notes.counter).toBe(7);
  });

  it("refuses a session past maxSessions with a 429 naming the limit, and takes one again once a session is freed", async () => {
    services = await serve(undefined, { warn: () => {}, maxSessions: 2 });
    expect((await post(services, "/sessions", { id: "a" })).status).toBe(201);
    expect((await post(services, "/sessions", { id: "b" })).status).toBe(201);
    const full = await post(services, "/sessions", { id: "c" });
    expect(full.status).toBe(429);
    expect(full.body).toMatchObject({ error: "too_many_sessions", limit: 2 });
    expect(full.body.message).toContain("limit of 2 sessions");
    expect((await post(services, "/sessions/a/fork")).status).toBe(429);
    await get(services, "/sessions/a", { method: "DELETE" });
    expect((await post(services, "/sessions", { id: "c" })).status).toBe(201);
  });

  it("answers 404 naming an unknown session at every address", async () => {
    services = await serve(undefined, { warn: () => {} });
    const addresses: Array<[string, RequestInit]> = [
      ["/sessions/ghost", {}],
      ["/sessions/ghost", { method: "DELETE" }],
      ["/sessions/ghost/reset", { method: "POST" }],
      ["/sessions/ghost/fork", { method: "POST" }],
      ["/s/ghost/notes/admin/state", {}],
      ["/s/ghost/notes/admin/state", { headers: { "evalsimulate-session": "ghost" } }],
    ];
    for (const [path, init] of addresses) {
      const answer = await get(services, path, init);
      expect(answer, `${init.method ?? "GET"} ${path}`).toEqual({
        status: 404,
        body: { error: "unknown_session", session: "ghost", message: expect.stringContaining('no session "ghost"') },
      });
    }
    // An MCP endpoint answers in JSON-RPC, by path or by header.
    const mcp: Array<[string, Record<string, string>]> = [
      ["/s/ghost/notes/mcp", {}],
      ["/notes/mcp", { "evalsimulate-session": "ghost" }],
    ];
    for (const [path, headers] of mcp) {
      const answer = await get(services, path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
      expect(answer, path).toEqual({
        status: 404,
        body: { jsonrpc: "2.0", id: null, error: { code: -32001, message: expect.stringContaining('no session "ghost"'), data: { session: "ghost" } } },
      });
    }
    // The official client sees the refusal as an error, not as another world's answer.
    await expect(connect(`${services.origin}/s/ghost/notes/mcp`)).rejects.toThrow();
  });

  it("says what is wrong with a session's options: 400 for a bad one, 409 for an id in use", async () => {
    services = await serve(undefined, { warn: () => {} });
    const bad: Array<[unknown, string]> = [
      [{ scenario: "nope" }, 'unknown scenario "nope"; known: quiet, empty, flaky, slow-net'],
      [{ clock: "yesterday" }, "yesterday"],
      [{ seed: -1 }, "seed is an integer"],
      [{ ttlSeconds: 0 }, "ttlSeconds is a positive number"],
      [{ ttlSeconds: 1e15 }, "up to 31536000"],
      [{ seed: 1.5 }, "seed is an integer"],
      [{ id: "a/b" }, "a session id is"],
      [{ colour: "red" }, 'unknown field "colour"'],
    ];
    for (const [body, message] of bad) {
      const answer = await post(services, "/sessions", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toContain(message);
    }
    const notJson = await fetch(`${services.origin}/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
    await post(services, "/sessions", { id: "taken" });
    expect(await post(services, "/sessions", { id: "taken" })).toMatchObject({ status: 409, body: { error: "session_exists" } });
    expect((await fetch(`${services.origin}/sessions`, { method: "PUT" })).status).toBe(405);
  });

  it("needs the admin token on every session route, and never on a session's fakes", async () => {
    services = await serve(undefined, { warn: () => {}, adminToken: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post(services, "/sessions", {})).status).toBe(401);
    const { body: session } = await post(services, "/sessions", { id: "locked" }, auth);
    const routes: Array<[string, string]> = [
      ["GET", "/sessions"],
      ["GET", "/sessions/locked"],
      ["POST", "/sessions/locked/reset"],
      ["POST", "/sessions/locked/fork"],
      ["GET", "/s/locked/notes/admin/state"],
      ["GET", "/s/locked/notes/admin/initial-state"],
      ["GET", "/s/locked/notes/admin/calls"],
      ["GET", "/s/locked/notes/admin/stubs"],
      ["DELETE", "/sessions/locked"],
    ];
    for (const [method, path] of routes) {
      const refused = await fetch(`${services.origin}${path}`, { method, headers: { authorization: "Bearer wrong" } });
      expect(refused.status, `${method} ${path}`).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain("Bearer");
    }
    // The agent's own endpoint needs no token.
    expect((await callIn(session.mcpServers[0].url, "bump", { by: 1 })).isError).toBe(false);
    for (const [method, path] of routes) {
      const allowed = await fetch(`${services.origin}${path}`, { method, headers: auth });
      expect(allowed.status, `${method} ${path} ${allowed.status >= 300 ? await allowed.text() : ""}`).toBeLessThan(300);
    }
  });
});

describe("sessions beside fakes named s and sessions", () => {
  it("lets the fakes' own paths win: sessions are then picked by header and made from the library", async () => {
    const services = await serve(new URL("../fixtures/sessions-shadowed/fakes.yaml", import.meta.url).pathname, { warn: () => {} });
    try {
      expect(textOf(await (await connect(`${services.origin}/s/mcp`)).callTool({ name: "create-note", arguments: { title: "own" } }))).toBe('{"count":1}');
      expect(textOf(await (await connect(`${services.origin}/sessions/mcp`)).callTool({ name: "create-note", arguments: { title: "own" } }))).toBe(
        '{"count":1}',
      );
      const session = await services.createSession({ id: "t" });
      const byHeader = await fetch(`${services.origin}/s/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          "evalsimulate-session": "t",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create-note", arguments: { title: "trial" } } }),
      });
      expect(await byHeader.text()).toContain('{\\"count\\":1}');
      expect(session.states.s.notes).toEqual([{ title: "trial" }]);
      expect(services.states.s.notes).toEqual([{ title: "own" }]);
    } finally {
      await services.close();
    }
  });
});
