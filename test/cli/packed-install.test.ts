import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMORY_SERVER } from "../fidelity/memory-server.js";
import { ROOT } from "../support/examples.js";
import { type PackedInstall, packedInstall, runIn } from "../support/packed-install.js";

// A user's first minutes, as the README's set-up has them: `npm install <tarball>` into an empty
// project, no optional peer added by hand, then every command a user runs first.

let pack: PackedInstall;

beforeAll(() => {
  pack = packedInstall();
  cpSync(join(ROOT, "examples/crm"), join(pack.app, "crm"), { recursive: true });
  cpSync(join(ROOT, "examples/memory"), join(pack.app, "memory"), { recursive: true });
}, 180_000);

afterAll(() => pack?.remove());

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runIn(pack.app, "npx", ["--no-install", "eval-simulate", ...args], env);

describe("a plain npm install of the packed package", () => {
  it("prints the help naming every command", async () => {
    const run = await cli(["--help"]);
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(run.code).toBe(0);
    for (const command of ["serve", "validate", "verify", "eval", "init", "replay"]) expect(run.stdout).toContain(command);
  });

  it("runs a copied example's evals offline with --dry, every case passing", async () => {
    const run = await cli(["eval", "crm/evals.yaml", "--dry"]);
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(run.stdout).toMatch(/^PASS: 5 cases/m);
    expect(run.code).toBe(0);
  });

  it("replays calls on a real MCP server and on the fake", async () => {
    const storage = mkdtempSync(join(tmpdir(), "eval-simulate-memory-"));
    try {
      // The server's environment is its own (NAME=value before the command), not replay's.
      const server = `MEMORY_FILE_PATH=${join(storage, "memory.jsonl")} ${JSON.stringify(process.execPath)} ${JSON.stringify(MEMORY_SERVER)}`;
      const run = await cli(["replay", "memory/tests/replay-calls.yaml", "memory/fakes.yaml", "--mcp", server]);
      expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
      expect(run.stdout).toMatch(/every answer the same as the real server's/);
      expect(run.code).toBe(0);
    } finally {
      rmSync(storage, { recursive: true, force: true });
    }
  });

  it("imports every entry point the package exports, by name", async () => {
    const exported = JSON.parse(readFileSync(join(pack.installed, "package.json"), "utf8")).exports as Record<string, unknown>;
    const entries = Object.keys(exported)
      .filter((key) => !key.endsWith(".json"))
      .map((key) => key.replace(/^\./, "eval-simulate"));
    expect(entries).toContain("eval-simulate/checks");
    const script = `for (const entry of ${JSON.stringify(entries)}) { const module = await import(entry); if (Object.keys(module).length === 0) throw new Error(entry + " exports nothing"); }\nconsole.log("imported");\n`;
    writeFileSync(join(pack.app, "imports.js"), script);
    const run = await runIn(pack.app, process.execPath, ["imports.js"]);
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("imported");
  });

  it("ships the bundle's files and none of tsc's JavaScript beside them (it would be a second copy of the engine)", () => {
    const inDist = (dir: string): string[] =>
      readdirSync(join(pack.installed, dir), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".js"))
        .map((file) => `${dir}/${file.split(sep).join("/")}`);
    const bundled = Object.keys(JSON.parse(readFileSync(join(ROOT, "dist/bundle-inputs.json"), "utf8")) as Record<string, string[]>).map(
      (file) => `dist/${file}`,
    );
    expect(bundled).toContain("dist/engine/eval/runner/trial-worker.js");
    expect(inDist("dist").sort()).toEqual([...bundled, "dist/viewer/viewer.js"].sort());
    expect(readFileSync(join(pack.installed, "dist/engine/chunks/THIRD-PARTY-LICENSES.txt"), "utf8")).toMatch(/^@modelcontextprotocol\/server@/m);
  });

  it("says which packages to install for a model case, instead of a missing-module crash", async () => {
    // openai-compatible needs no key: the missing AI SDK is the only thing in the way.
    writeFileSync(
      join(pack.app, "crm/model.yaml"),
      [
        "version: 1",
        "fakes: fakes.yaml",
        "cases:",
        "  - id: read-pipeline",
        "    prompt: List the open deals.",
        '    host: { type: model, model: "openai-compatible:llama3", baseURL: "http://127.0.0.1:9/v1" }',
        "    expect:",
        "      calls: [{ tool: crm/search-records }]",
        "",
      ].join("\n"),
    );
    const run = await cli(["eval", "crm/model.yaml"]);
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(run.stdout + run.stderr).toMatch(/npm install --save-dev @ai-sdk\/openai-compatible@2\.0\.92 ai@6\.0\.325 zod@4/);
    expect(run.code).toBe(2);
  });
});
