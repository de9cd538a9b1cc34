import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FakeSelectionError } from "../../engine/author/fakes/fake-selection.js";
import type { OutsideAttempt } from "../../engine/serve/host/starting-states.js";
import type { Services } from "../../engine/serve/host/start-services.js";
import { connect, serve, textOf } from "../support/services.js";

const SUBSETS = new URL("../fixtures/subsets/fakes.yaml", import.meta.url).pathname;

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
/** The status an MCP client's first request gets at `url`. */
const mcpStatus = async (url: string, headers: Record<string, string> = {}) =>
  (
    await fetch(url, {
      method: "POST",
      body: initialize,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    })
  ).status;

/** A GET sent with this Host, as an eval's egress forwards a real API's traffic (fetch sets its own Host). */
function statusByHost(port: number, host: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { host, ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("serving a subset of a manifest's fakes (the fakes option)", () => {
  let services: Services | undefined;
  afterEach(async () => {
    await services?.close();
    services = undefined;
  });

  it("serves only the fakes named: the others' routes answer 404, and mcpServers, served, states and the manifest dir hold only them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-subsets-"));
    services = await serve(SUBSETS, { fakes: ["mail", "crm"], manifestDir: dir });
    // In the manifest's order, whatever the order asked for.
    expect(services.served).toEqual(["crm", "mail"]);
    expect(services.mcpServers().map((s) => s.id)).toEqual(["crm", "mail"]);
    expect(Object.keys(services.states)).toEqual(["crm", "mail"]);
    expect(await mcpStatus(`${services.origin}/calendar/mcp`)).toBe(404);
    expect((await fetch(`${services.origin}/billing/invoices`)).status).toBe(404);
    expect((await fetch(`${services.origin}/calendar/admin/state`)).status).toBe(404);
    const notFound = await (await fetch(`${services.origin}/calendar/mcp`)).json();
    expect(notFound.served).toEqual(["/crm/mcp", "/crm/admin/state", "/mail/mcp", "/mail/admin/state", "/health"]);
    expect(() => services!.url("calendar")).toThrow(/no MCP fake "calendar"/);
    expect(() => services!.baseUrl("billing")).toThrow(/no API fake "billing"/);
    const client = await connect(services.url("crm"));
    expect(textOf(await client.callTool({ name: "find-records", arguments: {} }))).toContain("Ada");
    await client.close();
    expect(readdirSync(join(dir, "mcp")).sort()).toEqual(["crm", "mail"]);
    expect(existsSync(join(dir, "api"))).toBe(false);
  });

  it("serves an API fake of the subset, by path and by its Host, and none of the MCP fakes left out", async () => {
    services = await serve(SUBSETS, { fakes: ["crm", "billing"] });
    expect(services.mcpServers().map((s) => s.id)).toEqual(["crm"]);
    const invoices = await fetch(`${services.baseUrl("billing")}/invoices`);
    expect(invoices.status).toBe(200);
    expect(await invoices.json()).toEqual([{ id: "inv-1", total: 12 }]);
    expect(await statusByHost(services.port, "billing.example.com", "/invoices")).toBe(200);
    expect(await mcpStatus(`${services.origin}/mail/mcp`)).toBe(404);
  });

  it("refuses to start a subset that leaves out a required fake, naming it", async () => {
    const refused = serve(SUBSETS, { fakes: ["mail", "calendar"] });
    await expect(refused).rejects.toThrow(FakeSelectionError);
    await expect(refused).rejects.toThrow(/\(mail, calendar\) leave out "crm", which the manifest marks required: true/);
    await expect(refused).rejects.toMatchObject({ problem: "required", ids: ["crm"] });
  });

  it("refuses an id no fake has with a did-you-mean, and a selection of none", async () => {
    const refused = serve(SUBSETS, { fakes: ["crm", "mial"] });
    await expect(refused).rejects.toThrow(
      /^\[eval-simulate\] the fakes selected name no fake "mial"\. Did you mean "mail"\? The fakes: crm, mail, calendar, billing$/,
    );
    await expect(refused).rejects.toMatchObject({ problem: "unknown", ids: ["mial"] });
    await expect(serve(SUBSETS, { fakes: [] })).rejects.toMatchObject({ problem: "empty" });
  });

  it("serves every fake when no subset is named", async () => {
    services = await serve(SUBSETS);
    expect(services.served).toEqual(["crm", "mail", "calendar", "billing"]);
  });
});

describe("a session serving some of the host's fakes", () => {
  let services: Services | undefined;
  afterEach(async () => {
    await services?.close();
    services = undefined;
  });

  it("names only its fakes, answers 404 for the others' paths and Hosts, tells them as outside the session, and keeps its fakes in a fork", async () => {
    const attempts: OutsideAttempt[] = [];
    services = await serve(SUBSETS, { onOutside: (attempt) => attempts.push(attempt) });
    const session = await services.createSession({ fakes: ["mail", "crm"], secret: true });
    expect(session.fakes).toEqual(["crm", "mail"]);
    expect(session.mcpServers().map((s) => s.id)).toEqual(["crm", "mail"]);
    expect(() => session.url("calendar")).toThrow(/no MCP fake "calendar" is served in this session; served: crm, mail/);
    expect(() => session.baseUrl("billing")).toThrow(/no API fake "billing"/);
    const base = `${services.origin}/s/${session.address}`;
    expect(await mcpStatus(`${base}/calendar/mcp`)).toBe(404);
    expect((await fetch(`${base}/billing/invoices`)).status).toBe(404);
    expect((await fetch(`${base}/calendar/admin/state`)).status).toBe(404);
    expect(await statusByHost(services.port, "billing.example.com", "/invoices", { "EvalSimulate-Session": session.address })).toBe(404);
    // Without the session, the same request is the process's own, which serves billing.
    expect(await statusByHost(services.port, "billing.example.com", "/invoices")).toBe(200);
    expect(attempts.map((a) => [a.session, a.kind, a.path.replace(/~…/, "")])).toEqual([
      [session.id, "unserved", `/s/${session.id}/calendar/mcp`],
      [session.id, "unserved", `/s/${session.id}/billing/invoices`],
      [session.id, "unserved", `/s/${session.id}/calendar/admin/state`],
      [session.id, "unserved", "/invoices"],
    ]);
    const client = await connect(session.url("mail"));
    expect(textOf(await client.callTool({ name: "send-email", arguments: { to: "ada@example.com" } }))).toContain('"sent":1');
    await client.close();
    // The process's own world still serves every fake.
    expect(await mcpStatus(`${services.origin}/calendar/mcp`)).not.toBe(404);
    const fork = await session.fork();
    expect(fork.mcpServers().map((s) => s.id)).toEqual(["crm", "mail"]);
    const closed = await session.close();
    // What it left out kept its starting state: nothing could reach it.
    expect(closed.states.calendar).toEqual(closed.initial.calendar);
    expect(closed.states.mail.sent).toEqual(["ada@example.com"]);
  });

  it("takes fakes in POST /sessions, and refuses an unknown id (did you mean) and a subset without the required fake with a 400", async () => {
    services = await serve(SUBSETS);
    const post = (body: unknown) =>
      fetch(`${services!.origin}/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const made = await post({ fakes: ["crm", "billing"] });
    expect(made.status).toBe(201);
    const described = await made.json();
    expect(described.fakes).toEqual(["crm", "billing"]);
    expect(described.mcpServers.map((s: { id: string }) => s.id)).toEqual(["crm"]);
    expect(Object.keys(described.apis)).toEqual(["billing"]);
    const unknown = await post({ fakes: ["crm", "calender"] });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toMatch(/the session's fakes name no fake "calender"\. Did you mean "calendar"\?/);
    const required = await post({ fakes: ["mail"] });
    expect(required.status).toBe(400);
    expect((await required.json()).message).toMatch(/leave out "crm", which the manifest marks required: true/);
    expect((await post({ fakes: "crm" })).status).toBe(400);
  });

  it("refuses a session of a fake its host does not serve (the host's own subset)", async () => {
    services = await serve(SUBSETS, { fakes: ["crm", "mail"] });
    await expect(services.createSession({ fakes: ["crm", "calendar"] })).rejects.toThrow(/no fake "calendar"/);
    await expect(services.createSession({ fakes: ["mail"] })).rejects.toThrow(/leave out "crm"/);
  });
});
