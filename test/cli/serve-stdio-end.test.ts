/**
 * `eval-simulate serve --stdio <fake>` when the agent closes stdin: the process ends quietly, as
 * an MCP stdio server should, with nothing on stderr but what serve prints at start-up (no stack
 * trace of the bridge closing itself, no errors of requests it stopped on the way out).
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI } from "../support/cli-process.js";

const FIXTURE = new URL("../fixtures/protocol/fakes.yaml", import.meta.url).pathname;
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

/** Starts serve --stdio, sends `lines` once it is serving, then ends stdin; resolves with how it ended. */
function serveUntilStdinEnds(lines: object[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "serve", FIXTURE, "--stdio", "notes"], { env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      if (!sent && /stdio {2,}notes on stdin and stdout/.test(stderr)) {
        sent = true;
        child.stdin.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
      }
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("serve --stdio when stdin ends", { timeout: 120_000 }, () => {
  it("exits 0 with no stack trace and no errors on stderr", async () => {
    const run = await serveUntilStdinEnds([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/RangeError|Maximum call stack|eval-simulate: stdio:/);
  });

  it("exits 0 quietly when stdin ends with a request still on its way", async () => {
    const run = await serveUntilStdinEnds([INITIALIZE, { jsonrpc: "2.0", id: 2, method: "tools/list" }]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/RangeError|Maximum call stack|eval-simulate: stdio:/);
  });
});
