import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile, spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";

// The README's five minutes, followed as written: its handlers and its evals file, on a Recipe
// `init` captured from the real memory server, validate and pass `eval --dry` with the output the
// README prints. A change to init, the judge or the report that breaks the path fails here.
const MEMORY_SERVER = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
const section = /## Five minutes[^\n]*\n([\s\S]*?)\n## /.exec(readFileSync(join(ROOT, "README.md"), "utf8"))?.[1] ?? "";
const [handlers, evals] = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
const printed = /```\n(PASS[\s\S]*?)```/.exec(section)?.[1] ?? "";

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Runs node with `args` in `cwd` to its end. */
function runNode(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The fakes.yaml `init` wrote, with each tool the README writes a handler for swapped for the README's. */
function withHandlers(manifest: string): string {
  let text = manifest;
  for (const [, tool, block] of handlers.matchAll(/^( {6}[\w-]+):\n((?: {8}.*\n)+)/gm)) {
    const written = new RegExp(`^${tool}:\\n(?: {8}.*\\n)+`, "m");
    expect(text, `init wrote no ${tool.trim()}`).toMatch(written);
    text = text.replace(written, `${tool}:\n${block}`);
  }
  return text;
}

const durations = (text: string) => text.replace(/\d+(\.\d+)?s\b/g, "<duration>");

// docs/recipe-tests.md's contract test, written for the Recipe these steps leave.
const contractTest = /A contract test writes the record[\s\S]*?```js\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, "docs/recipe-tests.md"), "utf8"))?.[1] ?? "";

describe("the README's five minutes", () => {
  it("capture, two handlers and one case validate and pass eval --dry, printing what the README shows, and the Recipe's tests pass", async () => {
    expect(handlers).toContain("create_entities:");
    expect(evals).toContain("cases:");
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-readme-"));
    temps.push(dir);
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules/eval-simulate"));
    const init = await runCli(["init", dir, "--mcp", `"${process.execPath}" ${MEMORY_SERVER}`], { env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } });
    expect(init.code, init.stderr).toBe(0);
    writeFileSync(join(dir, "fakes.yaml"), withHandlers(readFileSync(join(dir, "fakes.yaml"), "utf8")));
    writeFileSync(join(dir, "evals.yaml"), evals);

    const validate = await runCli(["validate", "fakes.yaml", "evals.yaml"], { cwd: dir });
    expect(validate.code, validate.stdout).toBe(0);
    const run = await runCli(["eval", "evals.yaml", "--dry"], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(durations(run.stdout).trim()).toBe(durations(printed).trim());

    // docs/recipe-tests.md: its contract test writes the record, and the checks it registers read it.
    expect(contractTest).toContain("checkRecipeFakes(");
    writeFileSync(join(dir, "tests/fakes.test.js"), contractTest);
    const tests = await runNode(["--test", "tests/"], dir);
    expect(tests.stdout, tests.stderr).toMatch(/^# fail 0$/m);
    expect(tests.stdout).toMatch(/^ok \d+ - read_graph answers what create_entities wrote$/m);
    expect(tests.code).toBe(0);
    expect(readFileSync(join(dir, "tests/responses.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
  }, 120_000);
});

// The README's first serve prints what its block shows: where each fake and route is served.
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const servePrinted = /```\n(eval-simulate serving[\s\S]*?)```/.exec(README)?.[1] ?? "";

/** serve's start-up lines with the port and the clock, which differ run to run, named. */
const placeless = (text: string) =>
  text
    .replace(/:\d+(\/|\s|$)/g, ":<port>$1")
    .replace(/clock [^)]+/, "clock <now>")
    .replace("at http://0.0.0.0", "at http://127.0.0.1");

describe("the README's serve", () => {
  it("prints the routes the README shows", async () => {
    expect(servePrinted).toContain("health");
    const child = spawn(process.execPath, [CLI, "serve", "examples/crm/fakes.yaml", "--port", "0", "--host", "127.0.0.1"], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stdout = "";
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d) => {
          stdout += d;
          if (/health\s+\S+\n/.test(stdout)) resolve();
        });
        child.on("close", (code) => reject(new Error(`serve exited ${code}: ${stdout}`)));
      });
    } finally {
      child.kill("SIGTERM");
    }
    expect(placeless(stdout).trim()).toBe(placeless(servePrinted).trim());
  }, 60_000);
});
