import type { McpFakeRuntime } from "../mcp/index.js";
import type { RuntimeScope } from "../runtime/index.js";
import type { CompiledServer } from "../runtime/index.js";
import { readResource, ResourceNotFoundError } from "../runtime/index.js";
import type { McpFake } from "../../author/fakes/index.js";

/**
 * What an MCP fake serves of its resources: the captured lists of the resources and templates it
 * answers, and `readResource` from the committed state of the world the request addresses. Nothing when it serves none.
 *
 * @example createMcpEndpoint({ id, tools, callTool, ...resourcesOf(fake, (request) => worldOf(request).scope, compiled) });
 */
export function resourcesOf(
  fake: McpFake,
  scopeOf: (request?: Request) => RuntimeScope,
  compiled: CompiledServer,
): Pick<McpFakeRuntime, "resources" | "resourceTemplates" | "readResource"> {
  const served = fake.manifest.resources ?? [];
  if (served.length === 0) return {};
  return {
    resources: served.filter((r) => !r.template).map((r) => r.captured),
    resourceTemplates: served.filter((r) => r.template).map((r) => r.captured),
    async readResource(uri, extra) {
      try {
        return await readResource(scopeOf(extra.request), compiled, uri, extra.signal);
      } catch (error) {
        if (error instanceof ResourceNotFoundError) return undefined;
        throw error;
      }
    },
  };
}
