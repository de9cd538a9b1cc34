import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { guessWrites } from "../../engine/author/scaffold/init-recipe.js";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";

const MEMORY_SERVER = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

/** An empty Recipe folder whose `eval-simulate` is this package, as an installed copy would be. */
function recipeFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-init-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules/eval-simulate"));
  return dir;
}

function nodeTest(dir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--test", "tests/"], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code, output }));
  });
}

// Each test runs the CLI and node --test as processes: slow on a busy machine, never stuck.
describe("eval-simulate init", { timeout: 120_000 }, () => {
  it("writes a Recipe from a capture that validates as written, and whose generated test passes", async () => {
    const dir = recipeFolder();
    const init = await runCli(["init", dir, "--from", join(ROOT, "examples/crm/mcp/crm/tools.json")]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    const manifest = readFileSync(join(dir, "fakes.yaml"), "utf8");
    expect(manifest.split("\n")[0]).toBe("# yaml-language-server: $schema=./node_modules/eval-simulate/eval-simulate.schema.json");
    // Every captured tool is served, its guess explained.
    expect(manifest).toMatch(/^ {6}create-record:\n {8}writes: \[records\] {3}# guessed from/m);
    expect(manifest).toMatch(/^ {6}list-records:\n {8}reads: \[records\] {3}# guessed from readOnlyHint/m);
    const validate = await runCli(["validate", join(dir, "fakes.yaml")]);
    expect(validate.stdout).toMatch(/is valid: 1 server \(13 tools\)/);
    expect(validate.code).toBe(0);
    const tests = await nodeTest(dir);
    expect(tests.output).toMatch(/# fail 0|ℹ fail 0/);
    expect(tests.code).toBe(0);
  });

  it("captures a real MCP server over stdio (the reference memory server) into a Recipe that validates", async () => {
    const dir = recipeFolder();
    const init = await runCli(["init", dir, "--mcp", `"${process.execPath}" ${MEMORY_SERVER}`], { env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } });
    expect(init.stderr).toBe("");
    expect(init.stdout).toContain('wrote a Recipe for "memory" (9 tools)');
    const capture = JSON.parse(readFileSync(join(dir, "mcp/memory/tools.json"), "utf8"));
    expect(capture.serverInfo.name).toBe("memory-server");
    expect(capture.tools.map((t: { name: string }) => t.name)).toContain("read_graph");
    const manifest = readFileSync(join(dir, "fakes.yaml"), "utf8");
    // Tools with an outputSchema answer structured content: no `answer` is written for them.
    expect(manifest).not.toMatch(/read_graph:\n[^\n]*\n {8}answer:/);
    const validate = await runCli(["validate", join(dir, "fakes.yaml")]);
    expect(validate.code, validate.stdout).toBe(0);
    // Where it came from is recorded, so `eval-simulate capture memory --check` reads it again.
    expect(parse(manifest).servers.memory.capture).toEqual({ command: `"${process.execPath}" ${MEMORY_SERVER}` });
    const check = await runCli(["capture", "memory", "--manifest", join(dir, "fakes.yaml"), "--check"], {
      env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
    });
    expect(check.stdout).toContain("is what the real server serves now");
  });

  it("refuses to overwrite a Recipe without --force, and needs exactly one source", async () => {
    const dir = recipeFolder();
    const from = join(ROOT, "examples/weather/mcp/weather/tools.json");
    expect((await runCli(["init", dir, "--from", from])).code).toBe(0);
    const again = await runCli(["init", dir, "--from", from]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("not overwriting fakes.yaml");
    expect((await runCli(["init", dir, "--from", from, "--force"])).code).toBe(0);
    const none = await runCli(["init", dir]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("one of --from");
  });

  it("counts a dangling link as a file there, and never writes through it without --force", async () => {
    const dir = recipeFolder();
    const outside = join(dir, "..", `${basename(dir)}-outside.yaml`);
    symlinkSync(outside, join(dir, "fakes.yaml"));
    const refused = await runCli(["init", dir, "--from", join(ROOT, "examples/weather/mcp/weather/tools.json")]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("not overwriting fakes.yaml");
    expect(existsSync(outside)).toBe(false);
    rmSync(join(dir, "fakes.yaml"));
    symlinkSync(outside, join(dir, "package.json"));
    const linked = await runCli(["init", dir, "--from", join(ROOT, "examples/weather/mcp/weather/tools.json")]);
    expect([linked.code, linked.stderr]).toEqual([
      2,
      `eval-simulate: cannot read the Recipe's package.json: ${join(dir, "package.json")} is a link to nothing\n`,
    ]);
    expect(existsSync(outside)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it("says why on one line, exit 1, when the folder it is given is a file", async () => {
    const dir = recipeFolder();
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const refused = await runCli(["init", file, "--from", join(ROOT, "examples/weather/mcp/weather/tools.json")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^eval-simulate init: cannot write the Recipe into .*a-file: EEXIST: file already exists, mkdir .*\n$/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("guesses writes from annotations first, then from the tool's verb", () => {
    expect(guessWrites({ name: "delete-note", annotations: { readOnlyHint: true } }).writes).toBe(false);
    expect(guessWrites({ name: "list", annotations: { destructiveHint: true } }).writes).toBe(true);
    expect(guessWrites({ name: "sendEmail" }).writes).toBe(true);
    expect(guessWrites({ name: "get_forecast" }).writes).toBe(false);
    expect(guessWrites({ name: "settings" }).writes).toBe(false);
  });

  it("guesses by the verb when no annotation says: request_, approve_, mark_, set_ write; open_ reads", () => {
    for (const name of [
      "request_planning",
      "approve_task_completion",
      "mark_task_done",
      "set_priority",
      "add_tasks_to_request",
      "update_task",
      "delete_task",
      "create_request",
    ]) {
      expect(guessWrites({ name }), name).toEqual({ writes: true, why: "its name" });
    }
    for (const name of ["get_next_task", "list_requests", "search_docs", "read_file", "open_task_details"]) {
      expect(guessWrites({ name }), name).toEqual({ writes: false, why: "its name" });
    }
  });
});
