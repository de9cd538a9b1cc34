import type { ToolResult } from "../../author/handlers/index.js";
import type { McpClient, McpServerInfo } from "../mcp/index.js";
import type { ClientChannel } from "../runtime/index.js";
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions, ToolNotFoundError as McpToolNotFound } from "../mcp/index.js";
import { callTool, complete, getPrompt, PromptRequestError, ToolNotFoundError } from "../runtime/index.js";
import { McpRequestError } from "../mcp/index.js";
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
  // A changing tool list (`listed:`): which tools are listed, by the calls the world has answered.
  const changing = fake.manifest.tools.filter((tool) => tool.listed);
  const listedNow = (calls: number): ReadonlySet<string> =>
    new Set(
      fake.manifest.tools
        .filter(({ listed }) => !listed || (calls >= (listed.afterCalls ?? 0) && (listed.untilCalls === undefined || calls < listed.untilCalls)))
        .map((tool) => tool.name),
    );
  return createMcpEndpoint(
    {
      id,
      serverInfo: (fake.manifest.serverInfo as McpServerInfo | undefined) ?? { name: id, version: "1.0.0" },
      ...(fake.manifest.instructions !== undefined && { instructions: fake.manifest.instructions }),
      tools: fake.manifest.tools.map((tool) => tool.captured),
      ...resourcesOf(fake, (request) => worldOf(request).scope, compiled),
      ...(fake.manifest.logging && { logging: true }),
      ...(fake.manifest.sessions && { sessions: true }),
      ...(fake.manifest.pageSize !== undefined && { pageSize: fake.manifest.pageSize }),
      watch: (request, onCommit) => worldOf(request).scope.store.onCommit(onCommit),
      ...(changing.length > 0 && { listed: (request) => listedNow(worldOf(request).callCount()) }),
      ...(fake.manifest.prompts && {
        prompts: fake.manifest.prompts.map((prompt) => prompt.captured),
        async getPrompt(name, args, extra) {
          try {
            return await getPrompt(worldOf(extra.request).scope, compiled, name, args, extra.signal);
          } catch (error) {
            throw error instanceof PromptRequestError ? new McpRequestError(error.message) : error;
          }
        },
      }),
      ...((fake.manifest.prompts ?? []).some((p) => p.complete) || (fake.manifest.resources ?? []).some((r) => r.complete)
        ? { complete: (ref, argument, context, extra) => complete(worldOf(extra.request).scope, compiled, ref, argument, context, extra.signal) }
        : {}),
      async callTool(name, args, extra) {
        const started = Date.now();
        const world = worldOf(extra.request);
        const { scope, evidence } = world;
        try {
          // A tool not listed now is one the fake does not serve, as the list the client saw says.
          if (changing.length > 0 && !listedNow(world.callCount()).has(name)) throw new ToolNotFoundError(name);
          // The evidence is kept inside the call, before its commit: see callTool's `witness`.
          const answer = compiled.tools.get(name)?.manifest.answer;
          const outcome = await servedIn(world, () =>
            callTool(scope, compiled, name, args, extra.signal, (done) => evidence.mcpCall(done, answer), extra.client && channelOf(extra.client)),
          );
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

/** The runtime's channel over the endpoint's client: asking is offered only where the client can be asked. */
function channelOf(client: McpClient): ClientChannel {
  const cannot = (method: string) => () =>
    Promise.reject(
      new Error(
        `${method} cannot reach this client: serve the fake over stdio, or declare it with \`sessions: true\` for 2025-era clients (2026-07-28 requests ask through input_required results, which fakes do not send)`,
      ),
    );
  return {
    logging: client.logging,
    log: (level, data) => client.log(level, data),
    progress: (progress, total, message) => client.progress(progress, total, message),
    elicit: client.elicit ? (params, signal) => client.elicit!(params, signal) : cannot("elicitation/create"),
    sample: client.sample ? (params, signal) => client.sample!(params, signal) : cannot("sampling/createMessage"),
  };
}
