import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/examples.js";

const VERIFY = join(ROOT, "engine", "judge", "verify");
/** The folders the verify entry may reach: its own and engine/core/ (Node built-ins only, too). */
const ALLOWED = [VERIFY, join(ROOT, "engine", "core")];

/** Every module specifier a file imports or re-exports statically (type-only ones too: a `.d.ts` keeps them). */
function staticSpecifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gms, /^\s*import\s*["']([^"']+)["']/gm];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** Every file reachable from the folder's index through its relative imports, and what else they import. */
function walk(): { files: string[]; external: Array<{ file: string; specifier: string }> } {
  const seen = new Set<string>();
  const external: Array<{ file: string; specifier: string }> = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticSpecifiers(readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) {
        external.push({ file: relative(ROOT, file), specifier });
        continue;
      }
      const target = resolve(dirname(file), specifier.replace(/\.js$/, ".ts"));
      if (!ALLOWED.some((folder) => dirname(target) === folder || dirname(target).startsWith(`${folder}/`)))
        external.push({ file: relative(ROOT, file), specifier });
      else visit(target);
    }
  };
  for (const name of readdirSync(VERIFY).filter((n) => n.endsWith(".ts"))) visit(join(VERIFY, name));
  return { files: [...seen], external };
}

describe("engine/judge/verify (the eval-simulate/verify entry)", () => {
  it("imports only node: built-ins, so a judge can use it without the SDK or a test runner", () => {
    const { files, external } = walk();
    expect(files.length).toBeGreaterThan(5);
    const notBuiltIn = external.filter(({ specifier }) => !specifier.startsWith("node:") || !builtinModules.includes(specifier.slice(5)));
    expect(notBuiltIn).toEqual([]);
  });

  it("is scanned correctly: the scan sees a package import and one leaving the folder", () => {
    expect(staticSpecifiers('import { a } from "yaml";\nexport type { B } from "../contract/index.js";\nimport "./side.js";')).toEqual([
      "yaml",
      "../contract/index.js",
      "./side.js",
    ]);
  });
});
