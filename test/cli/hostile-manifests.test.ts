import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, startServe } from "../support/cli-process.js";

/**
 * `validate` runs in CI on a pull request's manifest, beside the CI's secrets: a manifest must
 * not make it print a file it has no business reading, fill the memory, or hang.
 *
 * "Exits in under 5 s" is checked on the CPU time the validate process spends (start-up
 * included), which a machine shared with other work does not inflate, and a hang (which spends
 * none) by a wall-clock bound well past it.
 */
const root = mkdtempSync(join(tmpdir(), "eval-simulate-hostile-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Preloaded into the CLI process: writes the CPU seconds it spent when it exits.
const CPU_REPORT = join(root, "cpu-report.cjs");
writeFileSync(
  CPU_REPORT,
  'process.on("exit", () => { const u = process.cpuUsage(); require("node:fs").writeFileSync(process.env.CPU_REPORT_FILE, String((u.user + u.system) / 1e6)); });\n',
);
let runs = 0;

const SECRET = "s3cr3t-token-4f1c9a";
const TOOLS = JSON.stringify({ tools: [{ name: "ping", inputSchema: { type: "object", properties: { word: { type: "string" } } } }] });

/** A Recipe folder whose manifest names `captured`, with a valid tools.json beside it. */
function recipe(name: string, captured: string, extra = ""): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tools.json"), TOOLS);
  const manifest = `version: 1
servers:
  notes:
    captured: ${JSON.stringify(captured)}
    tools:
      ping: { answer: { format: text }, jsonata: '"pong"' }
${extra}`;
  writeFileSync(join(dir, "fakes.yaml"), manifest);
  return join(dir, "fakes.yaml");
}

async function validate(file: string, ...flags: string[]) {
  const started = Date.now();
  const cpuFile = join(root, `cpu-${++runs}.txt`);
  const result = await runCli(["validate", file, ...flags], {
    env: { CI_DEPLOY_TOKEN: SECRET, NODE_OPTIONS: `--require ${CPU_REPORT}`, CPU_REPORT_FILE: cpuFile },
  });
  const wall = (Date.now() - started) / 1000;
  expect(wall, "validate returned, well before a hang would have ended it").toBeLessThan(25);
  return { ...result, seconds: Number(readFileSync(cpuFile, "utf8")), out: result.stdout + result.stderr };
}

describe("validate on a hostile manifest", () => {
  it("refuses captured: /proc/self/environ without printing the environment", async () => {
    const { code, out, seconds } = await validate(recipe("environ", "/proc/self/environ"));
    expect(code).toBe(1);
    expect(out).toContain("E_IO");
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain("CI_DEPLOY_TOKEN");
    expect(seconds).toBeLessThan(5);
  });

  it("refuses /proc/self/environ even with --allow-outside, as a system pseudo-file", async () => {
    const { code, out } = await validate(recipe("environ-allowed", "/proc/self/environ"), "--allow-outside");
    expect(code).toBe(1);
    expect(out).toContain("pseudo-file");
    expect(out).not.toContain(SECRET);
  });

  it("refuses captured: /dev/zero as a device, without reading it", async () => {
    const { code, out, seconds } = await validate(recipe("zero", "/dev/zero"), "--allow-outside");
    expect(code).toBe(1);
    expect(out).toMatch(/is a device, not a regular file/);
    expect(seconds).toBeLessThan(5);
  });

  it("refuses a named pipe inside the folder without hanging on it", async () => {
    const file = recipe("fifo", "pipe.json");
    execFileSync("mkfifo", [join(root, "fifo", "pipe.json")]);
    const { code, out, seconds } = await validate(file);
    expect(code).toBe(1);
    expect(out).toMatch(/is a named pipe \(FIFO\), not a regular file/);
    expect(seconds).toBeLessThan(5);
  });

  it("refuses a file outside the Recipe's folder, named directly or through a symlink, and never prints it", async () => {
    const outside = join(root, "outside-secret.json");
    writeFileSync(outside, `{ "tools": "${SECRET}" `);
    const direct = await validate(recipe("outside", "../outside-secret.json"));
    expect(direct.code).toBe(1);
    expect(direct.out).toMatch(/is outside the Recipe's folder/);
    expect(direct.out).not.toContain(SECRET);
    expect(direct.seconds).toBeLessThan(5);

    const linked = recipe("linked", "link.json");
    symlinkSync(outside, join(root, "linked", "link.json"));
    const through = await validate(linked);
    expect(through.code).toBe(1);
    expect(through.out).toMatch(/is outside the Recipe's folder .*it leads to/);
    expect(through.out).not.toContain(SECRET);
  });

  it("reads a file outside the folder with --allow-outside, showing no more than a window of its offending line", async () => {
    const outside = join(root, "outside-long.json");
    // One long line: a file with no line breaks must not be echoed whole in a code frame.
    writeFileSync(outside, `{ "tools": [ ${"1, ".repeat(5000)} ${SECRET} ]`);
    const { code, out } = await validate(recipe("outside-allowed", "../outside-long.json"), "--allow-outside");
    expect(code).toBe(1);
    expect(out).toContain("E_FILE_PARSE");
    for (const line of out.split("\n")) expect(line.length).toBeLessThan(400);
  });

  it("answers a catastrophic pattern in a captured schema and in an entity schema in linear time", async () => {
    const dir = join(root, "pattern");
    const file = recipe(
      "pattern",
      "tools.json",
      `    entities:
      words: { schema: { type: array, items: { type: string, pattern: "^(a+)+$" } }, default: [] }
scenarios:
  evil:
    default: true
    state:
      notes:
        words: ["${"a".repeat(40)}!"]
`,
    );
    writeFileSync(
      join(dir, "tools.json"),
      JSON.stringify({
        tools: [
          {
            name: "ping",
            inputSchema: { type: "object", properties: { word: { type: "string", pattern: "^(\\w+\\s?)*$", default: `${"word ".repeat(30)}!` } } },
          },
        ],
      }),
    );
    const { code, out, seconds } = await validate(file);
    expect(code).toBe(1);
    expect(out).toContain("E_WORLD_SCHEMA");
    expect(seconds).toBeLessThan(5);
  });

  it("refuses a captured pattern that needs backtracking and nests repetition, and warns about one that only needs lookaround", async () => {
    const dir = join(root, "lookaround");
    const file = recipe("lookaround", "tools.json");
    const schema = (pattern: string) => ({ type: "object", properties: { word: { type: "string", pattern } } });
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: [{ name: "ping", inputSchema: schema("^(?=.*\\d)(\\w+\\s?)*$") }] }));
    const refused = await validate(file);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/E_CAPTURE_INVALID .*repeats a repeated group/);

    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: [{ name: "ping", inputSchema: schema("^(?=.*\\d)[a-z0-9]{8,}$") }] }));
    const warned = await validate(file);
    expect(warned.code).toBe(0);
    expect(warned.out).toMatch(/W_PATTERN_FALLBACK the pattern "\^\(\?=\.\*\\\\d\)\[a-z0-9\]\{8,\}\$" uses lookaround/);
  });
});

describe("serve on a manifest naming a file outside its folder", () => {
  it("refuses to start, and serves with --allow-outside", async () => {
    const dir = join(root, "serve-outside", "recipe");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(root, "serve-outside", "tools.json"), TOOLS);
    writeFileSync(
      join(dir, "fakes.yaml"),
      `version: 1\nservers:\n  notes:\n    captured: ../tools.json\n    tools:\n      ping: { answer: { format: text }, jsonata: '"pong"' }\n`,
    );
    const refused = await runCli(["serve", join(dir, "fakes.yaml"), "--port", "0", "--host", "127.0.0.1"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/E_IO .*outside the Recipe's folder/);
    const serve = await startServe([join(dir, "fakes.yaml"), "--allow-outside"]);
    try {
      expect((await fetch(`http://127.0.0.1:${serve.port}/health`)).status).toBe(200);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});
