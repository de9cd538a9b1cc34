import type { ToolResult } from "../handlers/typescript-handlers.js";
import type { McpServerInfo } from "../mcp/fake-runtime.js";
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions, ToolNotFoundError as McpToolNotFound } from "../mcp/index.js";
import { callTool, type RuntimeScope, ToolNotFoundError } from "../runtime/call-tool.js";
import { compileServer } from "../runtime/compiled-fake.js";
import { resourcesOf } from "./resource-mount.js";
import type { Evidence } from "./evidence.js";
import type { McpFake } from "./fakes.js";

/**
 * One MCP fake's endpoint, built once: its tools compiled, every call run through the runtime's
 * pipeline and left as evidence (journal, record).
 *
 * @example const endpoint = mountMcpFake("notes", fake, scope, evidence); host.mcp.set("notes", endpoint.fetch);
 */
export function mountMcpFake(id: string, fake: McpFake, scope: RuntimeScope, evidence: Evidence, options: McpEndpointOptions = {}): McpEndpoint {
  const compiled = compileServer(fake.manifest);
  return createMcpEndpoint({
    id,
    serverInfo: (fake.manifest.serverInfo as McpServerInfo | undefined) ?? { name: id, version: "1.0.0" },
    ...(fake.manifest.instructions !== undefined && { instructions: fake.manifest.instructions }),
    tools: fake.manifest.tools.map((tool) => tool.captured),
    ...resourcesOf(fake, scope, compiled),
    async callTool(name, args, extra) {
      const started = Date.now();
      try {
        const outcome = await callTool(scope, compiled, name, args, extra.signal);
        evidence.mcpCall(outcome, compiled.tools.get(name)?.manifest.answer);
        return outcome.result as ToolResult;
      } catch (error) {
        if (!(error instanceof ToolNotFoundError)) throw error;
        evidence.mcpRefused({
          server: id,
          tool: name,
          args,
          error: { code: error.code, message: error.message },
          startedAt: new Date(started).toISOString(),
          durationMs: Date.now() - started,
        });
        // SDK v1 servers answer an unknown tool with a tool error result carrying the -32602 text.
        if (fake.manifest.unknownTool === "error-result") return { content: [{ type: "text", text: `MCP error -32602: Tool ${name} not found` }], isError: true };
        throw new McpToolNotFound(name);
      }
    },
  }, options);
}
