import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";

// observe with no real server named and none recorded says which flags name one, and why the
// manifest did not (missing, or no servers.<id>.capture), as a usage error.
const dir = mkdtempSync(join(tmpdir(), "eval-simulate-observe-none-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "calls.yaml"), "- { tool: read_graph, args: {} }\n");

describe("observe without a real server", () => {
  it("names --mcp and --mcp-url when there is no manifest", async () => {
    const run = await runCli(["observe", "calls.yaml", "--id", "memory"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'eval-simulate: observe: name the real server with --mcp "<command>" or --mcp-url <url> (there is no fakes.yaml; capture records it)\n',
    );
  });

  it("says the manifest records no capture of the fake", async () => {
    writeFileSync(join(dir, "fakes.yaml"), "version: 1\nservers: {}\n");
    const run = await runCli(["observe", "calls.yaml", "--id", "memory"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\(servers\.memory\.capture in fakes\.yaml names none; capture records it\)/);
  });
});
