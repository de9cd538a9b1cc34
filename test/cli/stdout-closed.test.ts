/**
 * A reader that stops early (`eval-simulate schema | head`, or `2>&1 | head`) closes the CLI's
 * stdout (and stderr): the command goes on to its own end and exit code, with no EPIPE stack trace.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI } from "../support/cli-process.js";

/** Runs the CLI with its stdout closed before it writes, as `| head -c 0` would. */
function runWithStdoutClosed(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: "1" } });
    let stderr = "";
    child.stdout.destroy();
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("a CLI whose stdout is closed early", { timeout: 60_000 }, () => {
  it("schema exits 0 with nothing on stderr", async () => {
    const run = await runWithStdoutClosed(["schema"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("eval --dry still exits with its verdict's code", async () => {
    const run = await runWithStdoutClosed(["eval", "examples/crm/evals.yaml", "--dry", "--limit", "1"]);
    expect(run.stderr).not.toMatch(/EPIPE|node:events/);
    expect(run.code).toBe(0);
  });

  it("a usage error still exits 2 when stderr is closed too (`2>&1 | head`)", async () => {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, "verify", "examples/mail/evals.yaml"], { env: { ...process.env, NO_COLOR: "1" } });
      child.stdout.destroy();
      child.stderr.destroy();
      child.on("error", reject);
      child.on("close", resolve);
    });
    expect(code).toBe(2);
  });
});
