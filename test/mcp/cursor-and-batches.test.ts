import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../engine/serve/host/start-services.js";
import { connect, serve, SERVE_FIXTURE } from "../support/services.js";
import { messageText, modernRequest } from "./serve-fake.js";

let services: Services;
beforeAll(async () => {
  services = await serve(SERVE_FIXTURE);
});
afterAll(() => services.close());

const state = async (): Promise<unknown> => (await fetch(`${services.origin}/notes/admin/state`)).json();

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(services.url("notes"), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

const create = (id: number | string, title: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "create-note", arguments: { title } } });

describe.each([
  ["2025-11-25", "legacy"],
  ["2026-07-28", "auto"],
] as const)("tools/list with a cursor in the %s era", (_era, mode) => {
  it("answers a cursor the server never issued with -32602, not the first page again", async () => {
    const client = await connect(services.url("notes"), mode);
    try {
      const refused = await client.listTools({ cursor: "page-2" }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ProtocolError);
      expect((refused as ProtocolError).code).toBe(-32602);
      expect((refused as ProtocolError).message).toMatch(/Invalid cursor/);
      // Without a cursor the one page still comes, with no cursor to follow.
      const { tools, nextCursor } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      expect(nextCursor).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe("JSON-RPC batches", () => {
  it("refuses a batch that repeats a request id before anything in it runs", async () => {
    const before = await state();
    const response = await post([create(7, "first"), create(7, "second")]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toBe("Invalid Request: the batch uses id 7 for more than one request; nothing in it was run");
    expect(await state()).toEqual(before);
    expect(services.calls("notes").filter((call) => call.name === "create-note")).toEqual([]);
  });

  it('refuses a repeated string id too, while ids 1 and "1" are different ids', async () => {
    const before = await state();
    const repeated = await post([create("a", "x"), { jsonrpc: "2.0", id: "b", method: "tools/list" }, create("a", "y")]);
    expect(repeated.status).toBe(400);
    expect(await state()).toEqual(before);

    // A 2025-03-26 client (no MCP-Protocol-Version header) may batch: each request is answered.
    const distinct = await post([create(1, "number one"), create("1", "string one")]);
    expect(distinct.status).toBe(200);
    const text = await distinct.text();
    const answers = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as { id: unknown });
    expect(answers.map((answer) => answer.id).sort()).toEqual([1, "1"]);
    const notes = (await state()) as { notes: Array<{ title: string }> };
    expect(
      notes.notes
        .map((note) => note.title)
        .slice(-2)
        .sort(),
    ).toEqual(["number one", "string one"]);
  });

  it("refuses any batch from a client on a revision without batching (2025-06-18 on), and an empty batch", async () => {
    const before = await state();
    for (const version of ["2025-06-18", "2025-11-25", "2026-07-28"]) {
      const response = await post([create(1, "batched")], { "mcp-protocol-version": version });
      expect(response.status, version).toBe(400);
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toBe(`Invalid Request: JSON-RPC batches are not part of MCP ${version} (removed in 2025-06-18); send one message per POST`);
    }
    const empty = await post([]);
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(await state()).toEqual(before);
  });

  it("refuses a repeated id in a request made in-process through services.fetch as well", async () => {
    const before = await state();
    const response = await services.fetch(
      new Request(services.url("notes"), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify([create(3, "in-process"), create(3, "again")]),
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(await state()).toEqual(before);
  });

  it("still serves single messages in both eras", async () => {
    const legacy = await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" });
    expect(legacy.status).toBe(200);
    expect(await messageText(legacy)).toContain('"tools"');
    const { headers, body } = modernRequest("tools/list");
    const modern = await fetch(services.url("notes"), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body,
    });
    expect(modern.status).toBe(200);
    expect(await messageText(modern)).toContain('"tools"');
  });
});
