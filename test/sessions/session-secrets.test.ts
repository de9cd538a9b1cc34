import { afterEach, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { connect, serve, textOf } from "../support/services.js";

const TOKEN = "admin-secret";
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function send(services: Services, path: string, init: RequestInit = {}) {
  const response = await fetch(`${services.origin}${path}`, init);
  return { status: response.status, body: await response.text() };
}

const post = async (services: Services, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const answer = await send(services, path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: answer.status, body: JSON.parse(answer.body) };
};

async function callIn(url: string, name: string, args: Record<string, unknown> = {}) {
  const client = await connect(url);
  try {
    return textOf(await client.callTool({ name, arguments: args }));
  } finally {
    await client.close();
  }
}

describe("sessions made with a secret", () => {
  let services: Services;
  afterEach(() => services?.close());

  it("are opened only by <sid>~<secret>: the bare id or a wrong secret answers exactly as a session that does not exist", async () => {
    services = await serve(undefined, { warn: () => {} });
    const created = await post(services, "/sessions", { id: "t1", secret: true });
    expect(created.status).toBe(201);
    const address = created.body.address as string;
    expect(address).toMatch(/^t1~[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({ id: "t1", secret: true, mcpServers: [{ id: "notes", url: `${services.origin}/s/${address}/notes/mcp` }] });
    expect(await callIn(created.body.mcpServers[0].url, "bump", { by: 4 })).toContain("4");
    expect(JSON.parse((await send(services, `/s/${address}/notes/admin/state`)).body).counter).toBe(4);
    expect(JSON.parse((await send(services, "/notes/admin/state", { headers: { "EvalSimulate-Session": address } })).body).counter).toBe(4);

    const wrong = `t1~${"A".repeat(43)}`;
    const misses: Array<[string, RequestInit]> = [
      ["/s/t1/notes/mcp", { method: "POST", headers: MCP_HEADERS, body: INITIALIZE }],
      [`/s/${wrong}/notes/mcp`, { method: "POST", headers: MCP_HEADERS, body: INITIALIZE }],
      ["/notes/mcp", { method: "POST", headers: { ...MCP_HEADERS, "EvalSimulate-Session": "t1" }, body: INITIALIZE }],
      ["/s/t1/notes/admin/state", {}],
      [`/s/${wrong}/notes/admin/state`, {}],
      ["/notes/admin/state", { headers: { "EvalSimulate-Session": wrong } }],
    ];
    for (const [path, init] of misses) {
      const miss = await send(services, path, init);
      // The same request to a session that was never made, named the same way.
      const ghost = await send(services, path.replace("t1", "t9"), {
        ...init,
        headers: Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k, String(v).replace("t1", "t9")])),
      });
      expect(miss.status).toBe(404);
      expect(miss.body.replaceAll("t1", "t9")).toBe(ghost.body);
      expect(miss.body).not.toContain("AAAA");
    }
    // Nothing the misses did reached the session.
    expect(JSON.parse((await send(services, `/s/${address}/notes/admin/state`)).body).counter).toBe(4);
  });

  it("are listed without what opens them unless an admin token guards the listing", async () => {
    services = await serve(undefined, { warn: () => {} });
    const { body: made } = await post(services, "/sessions", { id: "hidden", secret: true });
    const listed = JSON.parse((await send(services, "/sessions")).body).sessions[0];
    expect(listed).toMatchObject({ id: "hidden", secret: true });
    expect(listed).not.toHaveProperty("address");
    expect(listed).not.toHaveProperty("mcpServers");
    expect(JSON.stringify(listed)).not.toContain(made.address.split("~")[1]);
    expect(JSON.parse((await send(services, "/sessions/hidden")).body)).not.toHaveProperty("address");
    // A session without a secret is listed as before, its id its address.
    await post(services, "/sessions", { id: "open" });
    expect(JSON.parse((await send(services, "/sessions/open")).body)).toMatchObject({
      secret: false,
      address: "open",
      mcpServers: [{ url: `${services.origin}/s/open/notes/mcp` }],
    });
  });

  it("behind an admin token: listed in full, and a fork has a secret of its own", async () => {
    services = await serve(undefined, { warn: () => {}, adminToken: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const { body: parent } = await post(services, "/sessions", { id: "p", secret: true }, auth);
    await callIn(parent.mcpServers[0].url, "bump", { by: 2 });
    const listed = JSON.parse((await send(services, "/sessions", { headers: auth })).body).sessions[0];
    expect(listed.address).toBe(parent.address);
    const { status, body: fork } = await post(services, "/sessions/p/fork", { id: "f" }, auth);
    expect(status).toBe(201);
    expect(fork.address).toMatch(/^f~/);
    expect(fork.address.split("~")[1]).not.toBe(parent.address.split("~")[1]);
    expect(JSON.parse((await send(services, `/s/${fork.address}/notes/admin/state`, { headers: auth })).body).counter).toBe(2);
    expect((await send(services, `/s/f~${parent.address.split("~")[1]}/notes/admin/state`, { headers: auth })).status).toBe(404);
    const { body: open } = await post(services, "/sessions/p/fork", { id: "g", secret: false }, auth);
    expect(open.address).toBe("g");
  });

  it("refuses a secret that is not true or false", async () => {
    services = await serve(undefined, { warn: () => {} });
    const answer = await post(services, "/sessions", { secret: "mine" });
    expect(answer).toMatchObject({ status: 400, body: { error: "bad_session", message: expect.stringContaining("secret is true or false") } });
  });

  it("gives the library's session its address and URLs; in-process requests by its bare id reach nothing", async () => {
    services = await serve(undefined, { warn: () => {} });
    const session = await services.createSession({ secret: true });
    expect(session.address.startsWith(`${session.id}~`)).toBe(true);
    expect(session.url("notes")).toBe(`${services.origin}/s/${session.address}/notes/mcp`);
    await callIn(session.url("notes"), "bump", { by: 1 });
    expect(session.states.notes.counter).toBe(1);
    const bare = await services.fetch(new Request(`${services.origin}/s/${session.id}/notes/admin/state`));
    expect(bare.status).toBe(404);
  });
});
