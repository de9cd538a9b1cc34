import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpEndpoint } from "../../engine/serve/mcp/index.js";
import { connect, messageText, modernRequest, post, recordingFake, serveFake, type ServedFake } from "./serve-fake.js";

let served: ServedFake;
beforeAll(async () => {
  served = await serveFake(recordingFake());
});
afterAll(() => served.close());

async function json(response: Response): Promise<{ error?: { code: number; message: string }; result?: unknown }> {
  return JSON.parse(await messageText(response)) as { error?: { code: number; message: string } };
}

describe("requests the protocol refuses", () => {
  it("answers a malformed JSON body with a parse error and 400, then keeps serving", async () => {
    const response = await post(served.url, '{"jsonrpc":"2.0","id":1,"method":');
    expect(response.status).toBe(400);
    expect((await json(response)).error).toEqual({ code: -32700, message: "Parse error: Invalid JSON" });

    const client = await connect(served.url, "legacy");
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it("answers JSON that is not a JSON-RPC message with -32600 and 400", async () => {
    const response = await post(served.url, '{"hello":"world"}');
    expect(response.status).toBe(400);
    expect((await json(response)).error?.code).toBe(-32600);
  });

  it("answers an unsupported method with -32601 in both eras", async () => {
    const legacy = await post(served.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "prompts/list" }));
    expect((await json(legacy)).error).toEqual({ code: -32601, message: "Method not found" });
    const { headers, body } = modernRequest("resources/list");
    const modern = await post(served.url, body, headers);
    expect(modern.status).toBe(404);
    expect((await json(modern)).error).toEqual({ code: -32601, message: "Method not found" });
  });

  it("answers GET (no SSE stream to open) and DELETE (no session to end) with 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(served.url, { method, headers: { accept: "text/event-stream" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect((await json(response)).error?.code).toBe(-32000);
    }
  });

  it("answers a body that is not application/json with 415", async () => {
    const response = await fetch(served.url, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" });
    expect(response.status).toBe(415);
  });

  it("answers a 2026 request whose headers disagree with its body with -32020 and 400", async () => {
    const { headers, body } = modernRequest("tools/list");
    const response = await post(served.url, body, { ...headers, "mcp-method": "tools/call" });
    expect(response.status).toBe(400);
    expect((await json(response)).error?.code).toBe(-32020);
  });

  it("refuses a body over 1 MiB with 413 before parsing it", async () => {
    const response = await post(served.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(1024 * 1024) } }));
    expect(response.status).toBe(413);
    expect((await json(response)).error?.code).toBe(-32000);
  });

  it("reports refused requests to onerror without changing the answer", () => {
    expect(served.errors.some((error) => /not a valid JSON-RPC message/.test(error.message))).toBe(true);
  });
});

describe("the fetch function", () => {
  it("answers a request body that cannot be read with a parse error instead of rejecting", async () => {
    const endpoint = createMcpEndpoint(recordingFake());
    const broken = new ReadableStream({ pull: (controller) => controller.error(new Error("socket reset")) });
    const request = new Request("http://fake/notes/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: broken,
      duplex: "half",
    } as RequestInit);
    const response = await endpoint.fetch(request);
    expect(response.status).toBe(400);
    expect((await json(response)).error?.code).toBe(-32700);
    await endpoint.close();
  });

  it("answers 503 once closed instead of rejecting", async () => {
    const endpoint = createMcpEndpoint(recordingFake());
    await endpoint.close();
    const response = await endpoint.fetch(new Request("http://fake/notes/mcp", { method: "POST", body: "{}" }));
    expect(response.status).toBe(503);
  });

  it("refuses tools without a string name or with a name listed twice at start-up", () => {
    expect(() => createMcpEndpoint(recordingFake([{ inputSchema: {} }]))).toThrow(/tool 0 has no string name/);
    expect(() => createMcpEndpoint(recordingFake([{ name: "a" }, { name: "a" }]))).toThrow(/"a" is listed twice/);
  });
});
