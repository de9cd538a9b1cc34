import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";

// capture records into a manifest that exists: run where there is none, it says so (and how to
// get one) as a usage error, never as a bare ENOENT.
const dir = mkdtempSync(join(tmpdir(), "eval-simulate-capture-none-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("capture without a manifest", () => {
  it.each([
    ["an API's description", ["capture", "github", "--spec", "openapi.json", "--operations", "GET /a"]],
    ["a real MCP server", ["capture", "memory", "--mcp", "node -e 0"]],
  ])("names the missing manifest and init, for %s", async (_what, args) => {
    const run = await runCli(args, { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "eval-simulate capture: cannot read fakes.yaml: it does not exist (capture records into a manifest: eval-simulate init writes one)\n",
    );
  });
});
