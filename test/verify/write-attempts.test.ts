import { describe, expect, it } from "vitest";
import { piToolNames, writeAttempts, type WriteMaps } from "../../engine/entries/verify.js";

const tool = (writes: string[] = []) => ({ kind: "stateful" as const, reads: [], writes });

const manifests: WriteMaps = {
  crm: { id: "crm", kind: "mcp", entities: ["deals", "notes"], tools: { "list-deals": tool(), "create-note": tool(["notes"]), search: tool() } },
  "help-desk": {
    id: "help-desk",
    kind: "mcp",
    entities: ["tickets"],
    tools: { "create-note": tool(["tickets"]), search: tool(), "close-ticket": tool(["tickets"]) },
  },
  graph: {
    id: "graph",
    kind: "api",
    entities: ["messages"],
    operations: {
      "me.ListMessages": { reads: ["messages"], writes: [], method: "GET", path: "/me/messages" },
      "me.SendMail": { reads: [], writes: ["messages"], method: "POST", path: "/me/sendMail" },
      "DELETE /me/messages/{id}": { reads: [], writes: ["messages"] },
    },
  },
};

const names = (calls: object[], options = {}) => writeAttempts(calls, manifests, options).map((call) => `${call.server}/${call.tool}`);

describe("writeAttempts", () => {
  it("resolves every name form a harness gives a tool", () => {
    const [readable, hashed] = piToolNames("help-desk", "close-ticket");
    const forms = [
      { name: "close-ticket" },
      { name: "help-desk_close-ticket" },
      { name: "help-desk__close-ticket" },
      { name: "mcp__help-desk__close-ticket" },
      { name: "help_desk__close_ticket" },
      { name: readable },
      { name: hashed },
      { toolName: "help-desk__close-ticket", input: {} },
      { tool_name: "close-ticket" },
      { function: { name: "help-desk_close-ticket", arguments: "{}" } },
      { name: "mcp", args: { tool: "help_desk_close_ticket", args: '{"id":"t-1"}' } },
      { function: { name: "mcp", arguments: '{"tool":"help-desk_close-ticket"}' } },
      { server: "help-desk", tool: "close-ticket", args: {}, result: { content: [] } },
    ];
    expect(names(forms)).toEqual(Array(forms.length).fill("help-desk/close-ticket"));
  });

  it("returns each call as it was, with its server and contract tool name", () => {
    const call = { name: "mcp__crm__create-note", args: { title: "Renewal" }, id: "call-1" };
    expect(writeAttempts([call], manifests)).toEqual([{ ...call, server: "crm", tool: "create-note" }]);
  });

  it("does not guess the fake of an ambiguous bare name that writes, and says how to tell it", () => {
    expect(() => writeAttempts([{ name: "create-note", args: {} }], manifests)).toThrow(
      /"create-note" is ambiguous: it may be any of crm\/create-note, help-desk\/create-note.*options\.toolName/,
    );
  });

  it("ignores an ambiguous bare name when none of the tools it may mean writes", () => {
    expect(names([{ name: "search" }])).toEqual([]);
  });

  it("lets the caller's own naming decide, and falls back to the built-in forms", () => {
    const toolName = (call: { name?: string }) => (call.name === "create-note" ? { server: "crm", tool: "create-note" } : undefined);
    expect(names([{ name: "create-note" }, { name: "crm__create-note" }], { toolName })).toEqual(["crm/create-note", "crm/create-note"]);
  });

  it("leaves out reads, other fakes' calls and tools of no fake", () => {
    const calls = [
      { server: "crm", tool: "list-deals", args: {} },
      { server: "mail", tool: "send-email", args: {} },
      { name: "bash", args: { command: "ls" } },
      { name: "mcp__crm__list-deals" },
      { name: "mcp", args: { search: "deals" } },
    ];
    expect(names(calls)).toEqual([]);
  });

  it("matches API record lines by METHOD /template, whether the manifest keys an operationId or the route", () => {
    const calls = [
      { api: "graph", operation: "GET /me/messages", request: {}, response: { status: 200 } },
      { api: "graph", operation: "POST /me/sendMail", request: {}, response: { status: 400 } },
      { api: "graph", operation: "DELETE /me/messages/{id}", request: {}, response: { status: 204 } },
    ];
    expect(names(calls)).toEqual(["graph/me.SendMail", "graph/DELETE /me/messages/{id}"]);
  });

  it("throws on an empty set of manifests rather than report nothing", () => {
    expect(() => writeAttempts([{ name: "create-note" }], {})).toThrow(/\[eval-simulate\] writeAttempts needs at least one fake's manifest/);
  });
});

describe("piToolNames", () => {
  it("gives a readable name and a hashed one, both deterministic and within providers' 64 characters", () => {
    const [readable, hashed] = piToolNames("crm", "create-note");
    expect(readable).toBe("mcp__crm__create-note");
    expect(hashed).toMatch(/^crm_[0-9a-f]{8}$/);
    expect(piToolNames("crm", "create-note")).toEqual([readable, hashed]);
    expect(piToolNames("crm", "create-task")[1]).not.toBe(hashed);
    const long = piToolNames("a-rather-long-server-id", "get_organization_wireless_devices_channel_utilization_history");
    expect(long[1].length).toBeLessThanOrEqual(64);
    expect(long[1]).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});
