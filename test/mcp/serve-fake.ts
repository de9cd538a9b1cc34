/**
 * Test support for the MCP stage: captured tools that use every field a real tools/list carries,
 * a fake that records its calls, and the fake served on a real ephemeral port.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpEndpoint, ToolNotFoundError, type McpCallExtra, type McpFakeRuntime } from "../../engine/serve/mcp/index.js";
import { listen } from "../../engine/serve/http/http-listen.js";
import { loadMcpSdk } from "../../engine/author/contract/index.js";

// The engine loads the SDK when it mounts an MCP fake; endpoints built by hand here need it first.
await loadMcpSdk();

/** Tools as a real server listed them: titles, annotations, icons, _meta, output schemas, "42". */
export const CAPTURED: Array<Record<string, unknown>> = [
  {
    name: "search_notes",
    title: "Search notes",
    description: "Finds notes by text.",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { query: { type: "string", minLength: 1 }, limit: { type: "integer", default: 10, maximum: 50 } },
      required: ["query"],
      additionalProperties: false,
    },
    annotations: { title: "Search", readOnlyHint: true, openWorldHint: false },
    icons: [{ src: "https://example.com/search.png", mimeType: "image/png", sizes: ["48x48"] }],
    _meta: { "com.example/rank": 1, "com.example/tags": ["read"] },
  },
  {
    name: "42",
    description: "A tool whose name looks like an integer.",
    inputSchema: { type: "object", properties: {} },
    outputSchema: { type: "object", properties: { answer: { type: "integer" } }, required: ["answer"] },
  },
  {
    name: "create_note",
    title: "Create a note",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    outputSchema: { type: "object", properties: { id: { type: "string" }, text: { type: "string" } }, required: ["id"] },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  },
  { name: "7", description: "Another integer-like name, listed after the others.", inputSchema: { type: "object" } },
];

/** One call as the fake received it. */
export interface ReceivedCall {
  name: string;
  args: Record<string, unknown> | undefined;
  extra: McpCallExtra;
}

/** A fake over CAPTURED: `boom` throws, `wait` answers when its signal aborts, others echo. */
export function recordingFake(tools: Array<Record<string, unknown>> = CAPTURED): McpFakeRuntime & { calls: ReceivedCall[] } {
  const calls: ReceivedCall[] = [];
  const served = new Set(tools.map((tool) => tool.name as string));
  return {
    id: "notes",
    serverInfo: { name: "notes-server", version: "2.3.1", title: "Notes" },
    instructions: "Use search_notes before create_note.",
    tools,
    calls,
    async callTool(name, args, extra) {
      calls.push({ name, args, extra });
      if (!served.has(name)) throw new ToolNotFoundError(name, "notes");
      if (name === "boom") throw new Error("the handler broke: state unchanged");
      if (name === "wait") {
        await new Promise((resolve) => extra.signal.addEventListener("abort", resolve, { once: true }));
        throw new Error("aborted");
      }
      if (name === "42") return { content: [{ type: "text", text: '{"answer":42}' }], structuredContent: { answer: 42 } };
      if (name === "create_note") {
        const value = { id: `note-${calls.length}`, text: String(args?.text) };
        return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
      }
      return { content: [{ type: "text", text: JSON.stringify({ name, args: args ?? null }) }] };
    },
  };
}

/** A fake served on 127.0.0.1 at an ephemeral port, mounted at `/notes/mcp` as the host would. */
export interface ServedFake {
  url: URL;
  close(): Promise<void>;
  errors: Error[];
}

/** Serves `fake` on a real port. */
export async function serveFake(fake: McpFakeRuntime): Promise<ServedFake> {
  const errors: Error[] = [];
  const endpoint = createMcpEndpoint(fake, { onerror: (error) => errors.push(error) });
  const served = await listen(endpoint.fetch, { port: 0 });
  return {
    url: new URL(`${served.url}/notes/mcp`),
    errors,
    async close() {
      await endpoint.close();
      await served.close();
    },
  };
}

/** The protocol eras the official client speaks: its default, and the negotiated new one. */
export const ERAS = [
  { era: "2025-11-25", mode: "legacy" },
  { era: "2026-07-28", mode: "auto" },
] as const;

/** The official client, connected in the given negotiation mode. */
export async function connect(url: URL, mode: "legacy" | "auto"): Promise<Client> {
  const client = new Client({ name: "eval-simulate-test", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** Headers and `_meta` a 2026-07-28 request carries, for requests written by hand. */
export function modernRequest(method: string, params: Record<string, unknown> = {}, id = 1): { headers: Record<string, string>; body: string } {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const headers: Record<string, string> = { "mcp-protocol-version": "2026-07-28", "mcp-method": method };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  return { headers, body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }) };
}

/** POSTs a body as an MCP client would (JSON, accepting JSON and SSE). */
export function post(url: URL, body: string, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
    ...(signal !== undefined && { signal }),
  });
}

/** The JSON-RPC message text of a response, whether it came as JSON or as one SSE event. */
export async function messageText(response: Response): Promise<string> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return text;
  const data = text.split("\n").find((line) => line.startsWith("data: "));
  if (data === undefined) throw new Error(`no SSE data in ${JSON.stringify(text)}`);
  return data.slice("data: ".length);
}
