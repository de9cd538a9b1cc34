import type { ToolResult } from "../../author/handlers/index.js";
import type { McpServerInfo } from "../mcp/index.js";
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions, ToolNotFoundError as McpToolNotFound } from "../mcp/index.js";
import { callTool, ToolNotFoundError } from "../runtime/index.js";
import { compileServer, unknownToolText } from "../runtime/index.js";
import { resourcesOf } from "./resource-mount.js";
import type { McpFake } from "../../author/fakes/index.js";
import { servedIn, type WorldOf } from "./request-world.js";
import { noteMcpCall } from "../telemetry/index.js";

/**
 * One MCP fake's endpoint, built once: its tools compiled, every call run through the runtime's
 * pipeline in the world the request addresses (the process's own or a session's) and left as
 * that world's evidence (journal, record).
 *
 * @example const endpoint = mountMcpFake("notes", fake, worldOf); host.mcp.set("notes", endpoint.fetch);
 */
export function mountMcpFake(id: string, fake: McpFake, worldOf: WorldOf, options: McpEndpointOptions = {}): McpEndpoint {
  const compiled = compileServer(fake.manifest);
  return createMcpEndpoint(
    {
      id,
      serverInfo: (fake.manifest.serverInfo as McpServerInfo | undefined) ?? { name: id, version: "1.0.0" },
      ...(fake.manifest.instructions !== undefined && { instructions: fake.manifest.instructions }),
      tools: fake.manifest.tools.map((tool) => tool.captured),
      ...resourcesOf(fake, (request) => worldOf(request).scope, compiled),
      async callTool(name, args, extra) {
        const started = Date.now();
        const world = worldOf(extra.request);
        const { scope, evidence } = world;
        try {
          // The evidence is kept inside the call, before its commit: see callTool's `witness`.
          const answer = compiled.tools.get(name)?.manifest.answer;
          const outcome = await servedIn(world, () => callTool(scope, compiled, name, args, extra.signal, (done) => evidence.mcpCall(done, answer)));
          noteMcpCall(extra.request, {
            tool: name,
            committed: outcome.committed,
            commitSeq: outcome.commit?.seq,
            isError: outcome.result.isError === true,
            stub: outcome.stub,
          });
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
          // A fake that words the reply as its real server does answers a tool error with that text.
          const declared = unknownToolText(fake.manifest, name);
          if (declared !== undefined) return { content: [{ type: "text", text: declared }], isError: true };
          // SDK v1 servers answer an unknown tool with a tool error result carrying the -32602 text.
          if (fake.manifest.unknownTool === "error-result")
            return { content: [{ type: "text", text: `MCP error -32602: Tool ${name} not found` }], isError: true };
          throw new McpToolNotFound(name);
        }
      },
    },
    options,
  );
}
