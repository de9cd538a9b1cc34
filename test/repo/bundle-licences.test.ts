import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/examples.js";

// The package's bundle (scripts/bundle.mjs) redistributes every package it holds, so its
// THIRD-PARTY-LICENSES.txt must name each one: those esbuild read from node_modules, and those
// already inside a bundled package's own files (the MCP SDK's dist/ carries ajv, fast-uri and
// more under `//#region …/node_modules/<name>/…` comments, which esbuild drops). In the process
// project: it reads the dist/ the global set-up keeps current.

const PACKAGE = /(?:^|\/)node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//;

/** Every package the bundle holds, by name: read by esbuild, or inside a file it read. */
function bundledPackages(): Set<string> {
  const outputs = JSON.parse(readFileSync(join(ROOT, "dist/bundle-inputs.json"), "utf8")) as Record<string, string[]>;
  const names = new Set<string>();
  for (const input of new Set(Object.values(outputs).flat())) {
    const read = PACKAGE.exec(input.replace(/^.*(node_modules\/)/, "$1"));
    if (!read) continue;
    names.add(read[1]!);
    for (const [, region] of readFileSync(join(ROOT, input), "utf8").matchAll(/^\/\/#region (\S+)/gm)) {
      const inside = PACKAGE.exec(region!);
      if (inside) names.add(inside[1]!);
    }
  }
  return names;
}

describe("the bundle's third-party licences", () => {
  it("name every package the bundle holds, those inside the MCP SDK's own files included", () => {
    const licences = readFileSync(join(ROOT, "dist/engine/chunks/THIRD-PARTY-LICENSES.txt"), "utf8");
    const listed = new Set([...licences.matchAll(/^((?:@[^/\s]+\/)?[^@\s]+)@\d\S* \(/gm)].map((heading) => heading[1]));
    const bundled = bundledPackages();
    expect(bundled).toContain("ajv");
    expect(bundled).toContain("@modelcontextprotocol/client");
    expect([...bundled].filter((name) => !listed.has(name)).sort()).toEqual([]);
  });
});
