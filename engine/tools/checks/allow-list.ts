/**
 * The Recipe's allow-list: which captured tools of each MCP server its agent may call, read from
 * the Recipe's package.json (`pi.mcp.servers[].tools`: an `include` of "*" or tool names, less
 * an `exclude`).
 */
import { readFileSync } from "node:fs";
import { filePath } from "../testing/index.js";

/** One server the Recipe declares, with its include and exclude lists. */
export interface RecipeServer {
  id: string;
  include: string[];
  exclude: string[];
}

/** The servers a Recipe's package.json declares, by id. */
export interface RecipeServers {
  file: string;
  servers: Map<string, RecipeServer>;
}

const list = (value: unknown): string[] =>
  typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

function serverOf(id: string, declared: Record<string, unknown>): RecipeServer {
  const tools = declared.tools;
  if (tools === undefined) return { id, include: ["*"], exclude: [] };
  if (Array.isArray(tools) || typeof tools === "string") return { id, include: list(tools), exclude: [] };
  const { include, exclude } = (tools ?? {}) as { include?: unknown; exclude?: unknown };
  return { id, include: include === undefined ? ["*"] : list(include), exclude: list(exclude) };
}

/**
 * Reads the MCP servers a Recipe's package.json declares under `pi.mcp.servers`: an array of
 * `{ id, tools: { include, exclude } }` (or an object keyed by id). Throws when the file cannot
 * be read or declares none.
 *
 * @example readRecipeServers(new URL("../../package.json", import.meta.url)).servers.get("crm");
 */
export function readRecipeServers(recipe: string | URL): RecipeServers {
  const file = filePath(recipe);
  let json: { pi?: { mcp?: { servers?: unknown } } };
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`[eval-simulate] cannot read the Recipe's package.json ${file}: ${(error as Error).message}`);
  }
  const declared = json?.pi?.mcp?.servers;
  const servers = new Map<string, RecipeServer>();
  if (Array.isArray(declared)) {
    for (const entry of declared as Array<Record<string, unknown>>) {
      const id = typeof entry?.id === "string" ? entry.id : typeof entry?.name === "string" ? entry.name : undefined;
      if (id !== undefined) servers.set(id, serverOf(id, entry));
    }
  } else if (declared && typeof declared === "object") {
    for (const [id, entry] of Object.entries(declared as Record<string, Record<string, unknown>>)) servers.set(id, serverOf(id, entry ?? {}));
  }
  if (servers.size === 0) throw new Error(`[eval-simulate] the Recipe's package.json ${file} declares no MCP server under pi.mcp.servers`);
  return { file, servers };
}

/**
 * The captured tools a server's include and exclude allow, in captured order.
 *
 * @example allowedTools(["a", "b", "c"], { id: "x", include: ["*"], exclude: ["b"] }); // ["a", "c"]
 */
export function allowedTools(captured: readonly string[], server: RecipeServer): string[] {
  const all = server.include.includes("*");
  return captured.filter((name) => (all || server.include.includes(name)) && !server.exclude.includes(name));
}
