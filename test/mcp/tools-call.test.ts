import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { createMcpEndpoint } from "../../engine/serve/mcp/index.js";
import { listen } from "../../engine/serve/http/http-listen.js";
import { CAPTURED, connect, ERAS, messageText, modernRequest, post, recordingFake, serveFake, type ServedFake } from "./serve-fake.js";

const TOOLS = [...CAPTURED, { name: "boom", inputSchema: { type: "object" } }, { name: "wait", inputSchema: { type: "object" } }];
const fake = recordingFake(TOOLS);
let served: ServedFake;
beforeAll(async () => {
  served = await serveFake(fake);
});
afterAll(() => served.close());

async function withClient<T>(mode: "legacy" | "auto", use: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(served.url, mode);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** Resolves once `predicate` holds, polling; fails the test after two seconds. */
async function eventually(predicate: () => boolean): Promise<void> {
  for (let waited = 0; !predicate(); waited += 10) {
    if (waited > 2000) throw new Error("condition not met within 2 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(ERAS)("tools/call in the $era era", ({ mode }) => {
  it("reaches callTool with the arguments as sent and answers its result", async () => {
    const before = fake.calls.length;
    const result = await withClient(mode, (client) => client.callTool({ name: "search_notes", arguments: { query: "milk" } }));
    expect(result).toMatchObject({ content: [{ type: "text", text: '{"name":"search_notes","args":{"query":"milk"}}' }] });
    const call = fake.calls[before];
    expect(call?.name).toBe("search_notes");
    expect(call?.args).toEqual({ query: "milk" });
    expect(call?.extra.signal).toBeInstanceOf(AbortSignal);
    expect(call?.extra.request).toBeInstanceOf(Request);
    expect(new URL(call!.extra.request!.url).pathname).toBe("/notes/mcp");
  });

  it("answers structured content for a tool with an output schema, named like an integer", async () => {
    const result = await withClient(mode, async (client) => {
      await client.listTools();
      return client.callTool({ name: "42", arguments: {} });
    });
    expect(result.structuredContent).toEqual({ answer: 42 });
    expect(result.content).toEqual([{ type: "text", text: '{"answer":42}' }]);
  });

  it("answers a tool the fake does not serve with -32602 Tool <name> not found", async () => {
    const error = await withClient(mode, (client) => client.callTool({ name: "x", arguments: {} })).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32602, message: "Tool x not found" });
  });

  it("answers a throwing call with a tool error carrying its message", async () => {
    const result = await withClient(mode, (client) => client.callTool({ name: "boom", arguments: {} }));
    expect(result).toEqual(expect.objectContaining({ isError: true, content: [{ type: "text", text: "the handler broke: state unchanged" }] }));
  });

  it("answers 20 concurrent calls from one client, each with its own result", async () => {
    const results = await withClient(mode, (client) =>
      Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool({ name: "search_notes", arguments: { query: `q${i}` } }))),
    );
    results.forEach((result, i) => {
      expect(result.content).toEqual([{ type: "text", text: `{"name":"search_notes","args":{"query":"q${i}"}}` }]);
    });
  });
});

describe("an unknown tool", () => {
  it.each([
    ["2025-11-25", () => ({ headers: {}, body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "x", arguments: {} } }) })],
    ["2026-07-28", () => modernRequest("tools/call", { name: "x", arguments: {} }, 5)],
  ])("is answered exactly as the SDK's McpServer answers it (%s)", async (_era, request) => {
    const reference = createMcpHandler(() => new McpServer({ name: "reference", version: "1.0.0" }, { capabilities: { tools: {} } }));
    const { headers, body } = request();
    const ours = await post(served.url, body, headers);
    const theirs = await reference.fetch(
      new Request("http://reference/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body,
      }),
    );
    expect(ours.status).toBe(theirs.status);
    const error = JSON.parse(await messageText(ours)) as { error: unknown };
    expect(error.error).toEqual({ code: -32602, message: "Tool x not found" });
    expect(error).toEqual(JSON.parse(await messageText(theirs)));
    await reference.close();
  });
});

describe("tools/call under load and cancellation", () => {
  it("answers 20 concurrent calls from each of several clients of both eras", async () => {
    const clients = await Promise.all(["legacy", "auto", "legacy", "auto", "auto"].map((mode) => connect(served.url, mode as "legacy" | "auto")));
    try {
      const all = await Promise.all(
        clients.map((client, c) =>
          Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool({ name: "create_note", arguments: { text: `c${c}-${i}` } }))),
        ),
      );
      all.forEach((results, c) => results.forEach((result, i) => expect((result.structuredContent as { text: string }).text).toBe(`c${c}-${i}`)));
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it.each([
    ["2025-11-25", () => ({ headers: {}, body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "wait", arguments: {} } }) })],
    ["2026-07-28", () => modernRequest("tools/call", { name: "wait", arguments: {} }, 9)],
  ])("aborts the call's signal when a %s client disconnects", async (_era, request) => {
    const before = fake.calls.length;
    const disconnect = new AbortController();
    const { headers, body } = request();
    const pending = post(served.url, body, headers, disconnect.signal).catch(() => "disconnected");
    await eventually(() => fake.calls.length > before);
    const call = fake.calls[before]!;
    expect(call.name).toBe("wait");
    expect(call.extra.signal.aborted).toBe(false);
    disconnect.abort();
    await pending;
    await eventually(() => call.extra.signal.aborted);
  });

  it.each(["legacy", "auto"] as const)("aborts calls in flight when the endpoint closes and lets them answer (%s client)", async (mode) => {
    const own = recordingFake(TOOLS);
    const endpoint = createMcpEndpoint(own);
    const listening = await listen(endpoint.fetch);
    const client = await connect(new URL(`${listening.url}/notes/mcp`), mode);
    try {
      const pending = client.callTool({ name: "wait", arguments: {} }).catch((error: unknown) => error);
      await eventually(() => own.calls.length > 0);
      await endpoint.close();
      expect(own.calls[0]!.extra.signal.aborted).toBe(true);
      expect(await pending).toMatchObject({ isError: true, content: [{ type: "text", text: "aborted" }] });
    } finally {
      await client.close().catch(() => {});
      await listening.close();
    }
  });

  it("ends a call that ignores its signal once the close grace period is over", async () => {
    let started = false;
    const endpoint = createMcpEndpoint(
      { id: "stuck", tools: [{ name: "stuck", inputSchema: { type: "object" } }], callTool: () => ((started = true), new Promise(() => {})) },
      { closeGraceMs: 50 },
    );
    const listening = await listen(endpoint.fetch);
    const client = await connect(new URL(`${listening.url}/stuck/mcp`), "auto");
    try {
      const pending = client.callTool({ name: "stuck", arguments: {} }).catch((error: unknown) => error);
      await eventually(() => started);
      await endpoint.close();
      expect(await pending).toBeInstanceOf(Error);
    } finally {
      await client.close().catch(() => {});
      await listening.close();
    }
  });
});
