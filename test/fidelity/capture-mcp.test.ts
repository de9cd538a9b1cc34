import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { serve, connect } from "../support/services.js";
import { runCli } from "../support/cli-process.js";
import { memoryCommand } from "./memory-server.js";
import type { Services } from "../../engine/serve/host/start-services.js";

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-capture-mcp-"));
  writeFileSync(join(dir, "fakes.yaml"), "# the memory fake\nversion: 1\nservers: {} # filled by capture\n");
  return dir;
}

let services: Services | undefined;
afterEach(async () => {
  await services?.close();
  services = undefined;
});

const SLOW = 120_000; // real processes on a shared machine: an upper bound, not a measurement

describe("eval-simulate capture --mcp", { timeout: SLOW }, () => {
  it("writes every tool, the server's info, instructions, capabilities and resources, and records the capture keeping comments", async () => {
    const dir = workspace();
    const command = memoryCommand();
    const run = await runCli(["capture", "memory", "--manifest", join(dir, "fakes.yaml"), "--mcp", command]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/9 tools/);
    const capture = JSON.parse(readFileSync(join(dir, "mcp/memory/tools.json"), "utf8"));
    expect(capture.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "create_entities",
      "create_relations",
      "add_observations",
      "delete_entities",
      "delete_observations",
      "delete_relations",
      "read_graph",
      "search_nodes",
      "open_nodes",
    ]);
    expect(capture.serverInfo).toEqual({ name: "memory-server", version: "0.6.3" });
    expect(capture.capabilities.tools).toBeDefined();
    expect(capture.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(capture.resources).toEqual([expect.objectContaining({ uri: "memory://knowledge-graph", mimeType: "application/json" })]);
    const manifest = readFileSync(join(dir, "fakes.yaml"), "utf8");
    expect(manifest).toMatch(/^# the memory fake/);
    expect(parse(manifest).servers.memory).toEqual({ captured: "mcp/memory/tools.json", tools: {}, capture: { command } });
  });

  it("--check passes on a fresh capture and names each tool changed, removed or added after an edit", async () => {
    const dir = workspace();
    const manifest = join(dir, "fakes.yaml");
    expect((await runCli(["capture", "memory", "--manifest", manifest, "--mcp", memoryCommand()])).code).toBe(0);
    const clean = await runCli(["capture", "memory", "--manifest", manifest, "--check"]);
    expect(clean.stdout).toMatch(/✓/);
    expect(clean.code).toBe(0);
    const file = join(dir, "mcp/memory/tools.json");
    const capture = JSON.parse(readFileSync(file, "utf8"));
    capture.tools[7].description = "Search, edited by hand";
    capture.tools.splice(0, 1);
    capture.instructions = "made up";
    writeFileSync(file, JSON.stringify(capture, null, 2));
    const before = readFileSync(file, "utf8");
    const check = await runCli(["capture", "memory", "--manifest", manifest, "--check"]);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('tool "search_nodes" changed');
    expect(check.stdout).toContain('tool "create_entities" added');
    expect(check.stdout).toContain("instructions changed");
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("--check passes a capture of the installed server whose every object lists its keys in another order: key order is no change", async () => {
    // SDK and zod versions write a schema's keys in different orders (`type` before `description`
    // or after): the capture, its keys reversed everywhere, is the same capture.
    const dir = workspace();
    const manifest = join(dir, "fakes.yaml");
    expect((await runCli(["capture", "memory", "--manifest", manifest, "--mcp", memoryCommand()])).code).toBe(0);
    const file = join(dir, "mcp/memory/tools.json");
    const fresh = JSON.parse(readFileSync(file, "utf8"));
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, inner]) => [key, reversed(inner)]),
            )
          : value;
    const reordered = { tools: reversed(fresh.tools) };
    expect(JSON.stringify(reordered.tools)).not.toBe(JSON.stringify(fresh.tools));
    writeFileSync(file, JSON.stringify({ ...fresh, tools: reordered.tools }, null, 2));
    const check = await runCli(["capture", "memory", "--manifest", manifest, "--check"]);
    expect(check.stdout).toMatch(/^✓/);
    expect(check.code).toBe(0);
  });

  it("refuses a header that is not Name: value, and a capture with no server named", async () => {
    const dir = workspace();
    const bad = await runCli(["capture", "memory", "--manifest", join(dir, "fakes.yaml"), "--mcp-url", "http://127.0.0.1:9/mcp", "--header", "no-colon"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Name: value/);
  });

  it("serves the captured server's name, version and instructions in initialize", async () => {
    const dir = workspace();
    expect((await runCli(["capture", "memory", "--manifest", join(dir, "fakes.yaml"), "--mcp", memoryCommand()])).code).toBe(0);
    const file = join(dir, "mcp/memory/tools.json");
    const capture = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...capture, instructions: "Keep the graph small." }));
    services = await serve(join(dir, "fakes.yaml"));
    for (const mode of ["legacy", "auto"] as const) {
      const client = await connect(services.url("memory"), mode);
      expect(client.getServerVersion()).toMatchObject({ name: "memory-server", version: "0.6.3" });
      expect(client.getInstructions()).toBe("Keep the graph small.");
      await client.close();
    }
  });
});
