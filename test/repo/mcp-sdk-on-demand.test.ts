import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
const SERVER_SDK = /^@modelcontextprotocol\/server(\/|$)/;

/** The packages a source file imports statically at run time (type-only imports are erased). */
function staticImports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  return [...source.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s+)?"([^"]+)"/gm)].map((match) => match[1]);
}

const engineSources = readdirSync(join(ROOT, "engine"), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
  .map((entry) => join(entry.parentPath, entry.name));

describe("the MCP server SDK, loaded when an MCP fake is mounted", () => {
  it("is imported statically by no module of the engine (mcp-sdk.ts loads it with import())", () => {
    const importers = engineSources.filter((file) => staticImports(file).some((specifier) => SERVER_SDK.test(specifier))).map((file) => relative(ROOT, file));
    expect(importers).toEqual([]);
  });

  it("is loaded by import() in mcp-sdk.ts, the one loader the serving code awaits", () => {
    const loader = readFileSync(join(ROOT, "engine/author/contract/mcp-sdk.ts"), "utf8");
    expect(loader).toMatch(/import\("@modelcontextprotocol\/server"\)/);
    // The check sees a static import where there is one.
    expect(staticImports(join(ROOT, "engine/tools/testing/connect.ts"))).toContain("@modelcontextprotocol/client");
  });
});
