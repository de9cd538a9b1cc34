import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPTURED, connect, ERAS, messageText, modernRequest, post, recordingFake, serveFake, type ServedFake } from "./serve-fake.js";

let served: ServedFake;
beforeAll(async () => {
  served = await serveFake(recordingFake());
});
afterAll(() => served.close());

describe.each(ERAS)("tools/list in the $era era", ({ era, mode }) => {
  it("negotiates the era and announces the fake's identity, tools only", async () => {
    const client = await connect(served.url, mode);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(era);
      expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
      expect(client.getInstructions()).toBe("Use search_notes before create_note.");
      if (era === "2025-11-25") expect(client.getServerVersion()).toEqual({ name: "notes-server", version: "2.3.1", title: "Notes" });
    } finally {
      await client.close();
    }
  });

  it("gives the official client the captured tools, in captured order, integer-like names included", async () => {
    const client = await connect(served.url, mode);
    try {
      const { tools, nextCursor } = await client.listTools();
      expect(nextCursor).toBeUndefined();
      expect(tools.map((tool) => tool.name)).toEqual(["search_notes", "42", "create_note", "7"]);
      expect(tools).toEqual(CAPTURED);
    } finally {
      await client.close();
    }
  });
});

describe("tools/list on the wire", () => {
  it("carries each captured tool byte for byte in the 2025 era", async () => {
    const response = await post(served.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
    expect(response.status).toBe(200);
    expect(await messageText(response)).toContain(`"tools":${JSON.stringify(CAPTURED)}`);
  });

  it("carries each captured tool byte for byte in the 2026 era", async () => {
    const { headers, body } = modernRequest("tools/list");
    const response = await post(served.url, body, headers);
    expect(response.status).toBe(200);
    expect(await messageText(response)).toContain(`"tools":${JSON.stringify(CAPTURED)}`);
  });

  it("keeps fields the client's schema does not know, which the official client then drops", async () => {
    const odd = [{ name: "odd", inputSchema: { type: "object" }, annotations: { readOnlyHint: true, "x-vendor": 1 }, vendorField: "kept" }];
    const oddServed = await serveFake(recordingFake(odd));
    try {
      const raw = await messageText(await post(oddServed.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })));
      expect(raw).toContain(`"tools":${JSON.stringify(odd)}`);
      const client = await connect(oddServed.url, "legacy");
      const { tools } = await client.listTools();
      await client.close();
      expect(tools).toEqual([{ name: "odd", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }]);
    } finally {
      await oddServed.close();
    }
  });

  it("leaves execution out in the 2026 era only, as that revision deleted the field", async () => {
    const tasks = [{ name: "slow", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }];
    const tasksServed = await serveFake(recordingFake(tasks));
    try {
      const legacy = await messageText(await post(tasksServed.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })));
      expect(legacy).toContain(`"tools":${JSON.stringify(tasks)}`);
      const { headers, body } = modernRequest("tools/list");
      const modern = JSON.parse(await messageText(await post(tasksServed.url, body, headers))) as { result: { tools: unknown } };
      expect(modern.result.tools).toEqual([{ name: "slow", inputSchema: { type: "object" } }]);
    } finally {
      await tasksServed.close();
    }
  });

  it("serves a snapshot: changing the host's tool objects later changes nothing", async () => {
    const tools = [{ name: "a", inputSchema: { type: "object" } }];
    const snapServed = await serveFake(recordingFake(tools));
    try {
      (tools[0] as Record<string, unknown>).description = "added later";
      const raw = await messageText(await post(snapServed.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })));
      expect(raw).toContain(`"tools":[{"name":"a","inputSchema":{"type":"object"}}]`);
    } finally {
      await snapServed.close();
    }
  });
});
