import type { WorldSpec } from "../world/index.js";
import type { LoadContext } from "./load-context.js";
import type { ServerManifest } from "../model/index.js";

/**
 * A static tool answers the same whatever happens in a run, so it may not read an entity that
 * some tool writes or some scenario fills (an entity's default is the same in every world, so
 * reading it is allowed).
 */
export function checkStaticTools(servers: ServerManifest[], spec: WorldSpec, context: LoadContext): void {
  for (const server of servers) {
    const written = new Set(server.tools.flatMap((t) => t.writes));
    const filled = new Map<string, string>();
    for (const [name, scenario] of Object.entries(spec.scenarios)) {
      for (const entity of Object.keys(scenario.state?.[server.id] ?? {})) if (!filled.has(entity)) filled.set(entity, name);
    }
    for (const tool of server.tools.filter((t) => t.kind === "static")) {
      tool.reads.forEach((entity, index) => {
        const why = written.has(entity)
          ? `the tool "${server.tools.find((t) => t.writes.includes(entity))?.name}" writes it`
          : filled.has(entity)
            ? `scenario "${filled.get(entity)}" fills it`
            : undefined;
        if (why) {
          context.report.error(
            "E_STATIC_TOOL",
            ["servers", server.id, "tools", tool.name, "reads", index],
            `the static tool "${tool.name}" reads "${entity}", but ${why}`,
          );
        }
      });
    }
  }
}
