import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { MEMORY_SERVER } from "./memory-server.js";

const MEMORY = join(ROOT, "examples/memory");
const CALLS = join(MEMORY, "tests/replay-calls.yaml");
const SAME = "✓ memory: 22 calls, every answer the same as the real server's\n";
const server = (file: string) => `MEMORY_FILE_PATH=${file} ${JSON.stringify(process.execPath)} ${JSON.stringify(MEMORY_SERVER)}`;
const replay = (...flags: string[]) => runCli(["replay", CALLS, "--manifest", join(MEMORY, "fakes.yaml"), ...flags]);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const replayFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith("eval-simulate-fresh-"));

// Real processes on a shared machine: an upper bound, not a measurement.
describe("replay on a fresh real server every time", { timeout: 180_000 }, () => {
  it("answers the same twice with {{tmp}} in the command, and removes the folder after", async () => {
    const before = new Set(replayFolders());
    const first = await replay("--mcp", server("{{tmp}}/memory.jsonl"));
    const second = await replay("--mcp", server("{{tmp}}/memory.jsonl"));
    expect([first.stdout, second.stdout]).toEqual([SAME, SAME]);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(replayFolders().filter((name) => !before.has(name))).toEqual([]);
  });

  it("differs the second time on a server that kept its state, unless --reset clears it first", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-memory-"));
    dirs.push(dir);
    const file = join(dir, "memory.jsonl");
    expect((await replay("--mcp", server(file))).stdout).toBe(SAME);
    const stale = await replay("--mcp", server(file));
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/calls answered differently by memory\n$/);
    const reset = await replay("--mcp", server(file), "--reset", `rm -f ${JSON.stringify(file)}`);
    expect(reset.stdout).toBe(SAME);
    expect(existsSync(file)).toBe(true);
  });

  it("refuses the replay, saying why, when the reset command fails", async () => {
    const failed = await replay("--mcp", server("{{tmp}}/memory.jsonl"), "--reset", "echo no database here >&2; exit 3");
    expect(failed.code).toBe(2);
    expect(failed.stderr).toBe('eval-simulate: the reset command "echo no database here >&2; exit 3" exited 3: no database here\n');
  });
});
