import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";

const dir = mkdtempSync(join(tmpdir(), "eval-simulate-startup-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PRELOAD = join(ROOT, "test/support/loaded-modules.mjs");
let runs = 0;

const IMPORTED_COMMONJS = "commonjs-imported ";

/** Runs the built CLI to its exit and answers every module URL it loaded. */
async function modulesLoadedBy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  return (await linesOf(args, env)).filter((line) => !line.startsWith(IMPORTED_COMMONJS));
}

/** Runs the built CLI to its exit and answers the CommonJS modules an ESM `import` loaded. */
async function commonJsImportedBy(args: string[]): Promise<string[]> {
  return (await linesOf(args)).filter((line) => line.startsWith(IMPORTED_COMMONJS)).map((line) => line.slice(IMPORTED_COMMONJS.length));
}

/** Runs the built CLI to its exit and answers the lines test/support/loaded-modules.mjs wrote. */
function linesOf(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const file = join(dir, `modules-${++runs}.txt`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", PRELOAD, CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", LOADED_MODULES_FILE: file, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${args.join(" ")} exited ${code}: ${stderr}`));
      resolve(readFileSync(file, "utf8").split("\n"));
    });
  });
}

const MCP_SDK = /node_modules\/@modelcontextprotocol\/(server|core)\//;
const RE2 = /node_modules\/re2-wasm\//;
const JUDGE = /\/dist\/engine\/judge\//;
const EMULATE = /node_modules\/emulate\//;

describe("what a command loads at start-up", () => {
  it("sees the MCP SDK in a command that serves MCP fakes (eval --dry mounts them)", async () => {
    const loaded = await modulesLoadedBy(["eval", "examples/crm/evals.yaml", "--dry"]);
    expect(loaded.some((url) => MCP_SDK.test(url))).toBe(true);
  });

  it("loads one copy of zod for the MCP SDK's packages in eval --dry (npm dedupes it), not one per package", async () => {
    const loaded = await modulesLoadedBy(["eval", "examples/crm/evals.yaml", "--dry"]);
    const copies = new Set(loaded.filter((url) => url.endsWith("/zod/v4/core/core.js")));
    expect(copies.size).toBe(1);
  });

  it("validates the crm example again from a warm manifest cache loading neither ajv's compiler (the kept validators' code runs) nor yaml (the entry holds the parse)", async () => {
    const cache = mkdtempSync(join(dir, "cache-"));
    const warm = { EVAL_SIMULATE_CACHE_DIR: cache, EVAL_SIMULATE_CACHE: "1" };
    const cold = await modulesLoadedBy(["validate", "examples/crm/fakes.yaml"], warm);
    expect(cold.some((url) => /node_modules\/ajv\/dist\/compile\//.test(url))).toBe(true);
    const loaded = await modulesLoadedBy(["validate", "examples/crm/fakes.yaml"], warm);
    expect(loaded.filter((url) => /node_modules\/(ajv\/dist\/(compile\/|core\.js|ajv\.js)|yaml\/)/.test(url))).toEqual([]);
    expect(cold.some((url) => /node_modules\/yaml\//.test(url))).toBe(true);
  });

  it("runs eval --dry of the crm example again from a warm cache without loading yaml (the entries hold the manifest's and the evals file's parse)", async () => {
    const cache = mkdtempSync(join(dir, "cache-"));
    const warm = { EVAL_SIMULATE_CACHE_DIR: cache, EVAL_SIMULATE_CACHE: "1" };
    const cold = await modulesLoadedBy(["eval", "examples/crm/evals.yaml", "--dry"], warm);
    expect(cold.some((url) => /node_modules\/yaml\//.test(url))).toBe(true);
    const loaded = await modulesLoadedBy(["eval", "examples/crm/evals.yaml", "--dry"], warm);
    expect(loaded.filter((url) => /node_modules\/yaml\//.test(url))).toEqual([]);
  });

  it("validates the crm example, whose handlers import the whole engine, without loading the MCP SDK", async () => {
    const loaded = await modulesLoadedBy(["validate", "examples/crm/fakes.yaml"]);
    expect(loaded.some((url) => url.includes("/dist/engine/index.js"))).toBe(true);
    expect(loaded.filter((url) => MCP_SDK.test(url))).toEqual([]);
  });

  it("validates a manifest without handlers modules or patterns loading neither the SDK, RE2's wasm, the judge nor emulate", async () => {
    const loaded = await modulesLoadedBy(["validate", "examples/memory/fakes.yaml"]);
    expect(loaded.some((url) => url.includes("/dist/engine/author/manifest/"))).toBe(true);
    expect(loaded.filter((url) => MCP_SDK.test(url) || RE2.test(url) || JUDGE.test(url) || EMULATE.test(url))).toEqual([]);
  });

  it("loads RE2's wasm for a manifest whose schemas have patterns, checked in full", async () => {
    // A warm manifest cache defers those compiles to their first use, which validate may never reach.
    const loaded = await modulesLoadedBy(["validate", "examples/mail/fakes.yaml"], { EVAL_SIMULATE_CACHE: "0" });
    expect(loaded.some((url) => RE2.test(url))).toBe(true);
  });

  // node scans a CommonJS module an ESM `import` loads (and, on Node 20, every file it requires)
  // for its named exports: ajv, yaml, jsonata and jiti that way cost ~90 ms of a warm validate.
  it.each([
    ["validate examples/crm/fakes.yaml", ["validate", "examples/crm/fakes.yaml"]],
    ["eval examples/crm/evals.yaml --dry", ["eval", "examples/crm/evals.yaml", "--dry"]],
  ])("%s imports no CommonJS package of the engine's (they load through require)", async (_, args) => {
    const imported = await commonJsImportedBy(args);
    expect(imported.filter((url) => /node_modules\/(ajv|ajv-formats|yaml|jsonata|jiti)\//.test(url))).toEqual([]);
  });
});
