/**
 * A session's MCP servers as the model's tools: each server's `tools/list` (every page), offered
 * with names, descriptions and input schemas exactly as served, and each call sent back over MCP
 * (the real wire path, so the fake's journal and record see what any agent's calls would show).
 */
import type { Client } from "@modelcontextprotocol/client";
import { endToolCallSpans, toolCallSpans } from "../../serve/telemetry/index.js";

/** One MCP server to connect to. */
export interface McpServerRef {
  id: string;
  url: string;
}

/** A served tool and the server it came from. */
export interface ServedTool {
  server: string;
  /** The name the model sees: the tool's own, or `<server>__<tool>` when two servers share it. */
  name: string;
  tool: { name: string; description?: string; inputSchema: Record<string, unknown> };
  client: Client;
}

/** What a host's MCP clients declare and answer when a fake asks them something (the host's answerer). */
export interface ClientSetup {
  capabilities: Record<string, unknown>;
  /** Registers the request handlers on a client of `server`, before it connects. */
  setup(client: Client, server: string): void;
}

/** A tool call's outcome as the model gets it back. */
export interface ToolOutcome {
  text: string;
  isError: boolean;
}

/**
 * Connects to every server and lists its tools. Close the returned clients when done.
 *
 * @example const { tools, close } = await connectTools(session.mcpServers());
 */
export async function connectTools(
  servers: readonly McpServerRef[],
  headers: Record<string, string> = {},
  clientSetup?: ClientSetup,
): Promise<{ tools: ServedTool[]; close(): Promise<void> }> {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const clients: Client[] = [];
  const close = async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
  };
  try {
    const listed: Array<Omit<ServedTool, "name">> = [];
    for (const server of servers) {
      const client = new Client({ name: "eval-simulate-runner", version: "1.0.0" }, clientSetup ? { capabilities: clientSetup.capabilities } : undefined);
      clientSetup?.setup(client, server.id);
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        for (const tool of page.tools) listed.push({ server: server.id, tool: tool as ServedTool["tool"], client });
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    }
    const count = new Map<string, number>();
    for (const { tool } of listed) count.set(tool.name, (count.get(tool.name) ?? 0) + 1);
    const tools = listed.map((served) => ({ ...served, name: count.get(served.tool.name)! > 1 ? `${served.server}__${served.tool.name}` : served.tool.name }));
    return { tools, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Calls a served tool over MCP and gives back its text, as a host shows a tool result to the
 * model; `signal` (the trial's) abandons a call still waiting when the trial is stopped.
 *
 * @example const { text, isError } = await callServedTool(tool, { id: "T-1" });
 */
export async function callServedTool(
  served: ServedTool,
  args: unknown,
  signal?: AbortSignal,
  trace?: { parent: string; callId?: string },
): Promise<ToolOutcome> {
  // Traced, the call's MCP client span travels in `_meta`, where the fake's server span finds it.
  const spans = trace && toolCallSpans(trace.parent, { tool: served.tool.name, server: served.server, ...(trace.callId ? { callId: trace.callId } : {}) });
  const meta = spans?.client.traceparent ? { _meta: { traceparent: spans.client.traceparent } } : {};
  let result: { content?: Array<{ type: string; text?: string }>; structuredContent?: unknown; isError?: boolean };
  try {
    result = (await served.client.callTool(
      { name: served.tool.name, arguments: (args ?? {}) as Record<string, unknown>, ...meta },
      signal ? { signal } : undefined,
    )) as typeof result;
  } catch (error) {
    if (spans) endToolCallSpans(spans, { error });
    throw error;
  }
  if (spans) endToolCallSpans(spans, { isError: result.isError === true });
  const texts = (result.content ?? []).map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`));
  const text = texts.length > 0 ? texts.join("\n") : JSON.stringify(result.structuredContent ?? null);
  return { text, isError: result.isError === true };
}
