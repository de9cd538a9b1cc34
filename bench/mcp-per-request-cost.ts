/**
 * Measures, by hand, what one MCP request costs in-process: the endpoint (low-level Server per
 * request) against the same entry with an McpServer-per-request factory registering 50 tools,
 * and a bare fetch function that only parses the body and answers JSON. Not a test.
 *
 *   node --import jiti/register bench/mcp-per-request-cost.ts
 */
import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { fakeServers } from "../engine/serve/mcp/fake-server.js";
import { createMcpEndpoint } from "../engine/serve/mcp/index.js";
import { modernRequest } from "../test/mcp/serve-fake.js";

const TOOLS = Array.from({ length: 50 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Tool number ${i}.`,
  inputSchema: { type: "object", properties: { id: { type: "string" }, limit: { type: "integer" } }, required: ["id"] },
}));
const RESULT = { content: [{ type: "text" as const, text: "ok" }] };
const fake = { id: "bench", tools: TOOLS, callTool: async () => RESULT };

// McpServer needs Standard Schemas; they are compiled once, as a real server would.
const validator = new AjvJsonSchemaValidator();
const schemas = TOOLS.map((tool) => fromJsonSchema(tool.inputSchema as never, validator));
function mcpServerFactory(): McpServer {
  const server = new McpServer({ name: "bench", version: "1.0.0" }, { jsonSchemaValidator: validator });
  TOOLS.forEach((tool, i) => server.registerTool(tool.name, { description: tool.description, inputSchema: schemas[i] }, async () => RESULT));
  return server;
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const REQUESTS: Record<string, () => Request> = {
  "2025 tools/call": () =>
    new Request("http://x/mcp", {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "tool_7", arguments: { id: "a" } } }),
    }),
  "2025 tools/list": () =>
    new Request("http://x/mcp", { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }),
  "2026 tools/call": () => modern("tools/call", { name: "tool_7", arguments: { id: "a" } }),
  "2026 tools/list": () => modern("tools/list"),
};
function modern(method: string, params?: Record<string, unknown>): Request {
  const { headers, body } = modernRequest(method, params);
  return new Request("http://x/mcp", { method: "POST", headers: { ...HEADERS, ...headers }, body });
}

type Fetch = (request: Request) => Promise<Response>;
const subjects: Record<string, Fetch> = {
  "bare fetch (floor)": async (request) => {
    const body = (await request.json()) as { id: number };
    return Response.json({ jsonrpc: "2.0", id: body.id, result: RESULT });
  },
  "endpoint (low-level Server)": createMcpEndpoint(fake).fetch,
  "McpServer x50 per request": createMcpHandler(mcpServerFactory).fetch,
};

/** Median and mean microseconds per request over `n` sequential requests. */
async function timeFetch(fetch: Fetch, make: () => Request, n: number): Promise<{ p50: number; mean: number }> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const request = make();
    const start = process.hrtime.bigint();
    await (await fetch(request)).text();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(n / 2)]!, mean: samples.reduce((a, b) => a + b, 0) / n };
}

function timeSync(make: () => unknown, n: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) make();
  return Number(process.hrtime.bigint() - start) / 1000 / n;
}

const lowFactory = fakeServers(fake, new AbortController().signal).create;
for (let i = 0; i < 2000; i++) lowFactory(), mcpServerFactory();
console.log(`factory only: low-level Server ${timeSync(lowFactory, 20000).toFixed(1)} µs, McpServer x50 ${timeSync(mcpServerFactory, 2000).toFixed(1)} µs`);

for (const [label, make] of Object.entries(REQUESTS)) {
  for (const fetch of Object.values(subjects)) await timeFetch(fetch, make, 300); // warm up
  for (const [name, fetch] of Object.entries(subjects)) {
    const { p50, mean } = await timeFetch(fetch, make, 3000);
    console.log(`${label.padEnd(16)} ${name.padEnd(28)} p50 ${p50.toFixed(0).padStart(5)} µs  mean ${mean.toFixed(0).padStart(5)} µs`);
  }
}
