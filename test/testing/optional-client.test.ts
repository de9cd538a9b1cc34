import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
const CLIENT = "@modelcontextprotocol/client";

/** The modules a source file imports at run time (type-only imports are erased). */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s+)?"([^"]+)"/gm)) found.push(match[1]);
  return found;
}

/** Every module reachable from `entry` through static run-time imports: local files and packages. */
function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
    }
  };
  visit(join(ROOT, entry));
  return { files, packages };
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("the official MCP client, an optional peer dependency", () => {
  it("is never loaded by the host's import path: the package root, serve, validate and the bin", () => {
    for (const entry of ["engine/index.ts", "cli/main.ts", "cli/serve.ts", "cli/validate.ts", "cli/check.ts"]) {
      expect([...reachable(entry).packages], entry).not.toContain(CLIENT);
    }
    // The walk does see the packages the engine imports statically.
    expect(reachable("engine/index.ts").packages).toContain("immer");
  });

  it("is imported only by engine/testing, which eval-simulate/checks builds on", () => {
    const importers = sources("engine")
      .filter((file) => runtimeImports(file).includes(CLIENT))
      .map((file) => relative(ROOT, file));
    expect(importers.every((file) => file.startsWith("engine/tools/testing/"))).toBe(true);
    expect(reachable("engine/entries/checks.ts").packages).toContain(CLIENT);
  });
});
