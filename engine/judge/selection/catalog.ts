/**
 * The catalog a tool-selection eval offers the model: every tool the MCP fakes serve (their
 * allow-lists), with names, descriptions and input schemas exactly as captured, each in an area
 * (the manifest's `areas`, else its server's id). API operations are not offered: an agent
 * reaches them through its own HTTP tools, not by name.
 */
import type { Fakes } from "../../author/fakes/index.js";

/** One tool as the model is offered it. */
export interface SelectionTool {
  /** `server/tool`: how results and scores name it. */
  id: string;
  server: string;
  /** The tool's captured name. */
  tool: string;
  /** The name the model sees: the captured one, or `<server>__<tool>` when two servers share it. */
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  area: string;
}

/** The served tools, their areas, and the names that lead to them. */
export interface SelectionCatalog {
  tools: SelectionTool[];
  /** Every area, in catalog order. */
  areas: string[];
  /** The tools a name means: `server/tool`, the bare name, `server__tool`, `mcp__server__tool`. */
  resolve(name: string): SelectionTool[];
  /** The tool the model called by its offered name. */
  offered(name: string): SelectionTool | undefined;
}

/**
 * The selection catalog of loaded fakes.
 *
 * @example selectionCatalog((await loadFakes("fakes.yaml")).fakes).tools.map((t) => t.id)
 */
export function selectionCatalog(fakes: Fakes): SelectionCatalog {
  const listed: Array<Omit<SelectionTool, "name">> = [];
  for (const [server, fake] of Object.entries(fakes)) {
    if (fake.kind !== "mcp") continue;
    const areaOf = new Map<string, string>();
    for (const [area, names] of Object.entries(fake.manifest.areas ?? {})) for (const name of names) if (!areaOf.has(name)) areaOf.set(name, area);
    for (const served of fake.manifest.tools) {
      const captured = served.captured as { name: string; description?: string; inputSchema?: Record<string, unknown> };
      listed.push({
        id: `${server}/${served.name}`,
        server,
        tool: served.name,
        ...(captured.description !== undefined ? { description: captured.description } : {}),
        inputSchema: captured.inputSchema ?? { type: "object" },
        area: areaOf.get(served.name) ?? server,
      });
    }
  }
  const count = new Map<string, number>();
  for (const t of listed) count.set(t.tool, (count.get(t.tool) ?? 0) + 1);
  const tools = listed.map((t) => ({ ...t, name: count.get(t.tool)! > 1 ? `${t.server}__${t.tool}` : t.tool }));
  const byOffered = new Map(tools.map((t) => [t.name, t]));
  const byId = new Map(tools.map((t) => [t.id, t]));
  return {
    tools,
    areas: [...new Set(tools.map((t) => t.area))],
    offered: (name) => byOffered.get(name),
    resolve(name) {
      const exact = byId.get(name) ?? byOffered.get(name);
      if (exact) return [exact];
      const harness = /^mcp__([a-z0-9][a-z0-9-]*)__(.+)$/.exec(name);
      if (harness) return tools.filter((t) => t.server === harness[1] && t.tool === harness[2]);
      return tools.filter((t) => t.tool === name);
    },
  };
}
