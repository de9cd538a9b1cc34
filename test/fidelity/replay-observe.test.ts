import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadObserved } from "../../engine/tools/checks/observed-format.js";
import { answerDifferences } from "../../engine/tools/fidelity/call-answer.js";
import { readCalls } from "../../engine/tools/fidelity/calls-file.js";
import { observeTool } from "../../engine/tools/fidelity/observe.js";
import type { Services } from "../../engine/serve/host/start-services.js";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { connect, serve } from "../support/services.js";
import { memoryCommand } from "./memory-server.js";

const MEMORY = join(ROOT, "examples/memory");
const CALLS = join(MEMORY, "tests/replay-calls.yaml");

function copyOfMemory(edit: (fakes: string) => string = (f) => f): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-replay-"));
  cpSync(MEMORY, dir, { recursive: true });
  writeFileSync(join(dir, "fakes.yaml"), edit(readFileSync(join(dir, "fakes.yaml"), "utf8")));
  return dir;
}

let services: Services | undefined;
afterEach(async () => {
  await services?.close();
  services = undefined;
});

const SLOW = 120_000; // real processes on a shared machine: an upper bound, not a measurement

describe("eval-simulate replay", { timeout: SLOW }, () => {
  it("exits 0 when every answer is the real server's, byte for byte", async () => {
    const run = await runCli(["replay", CALLS, "--manifest", join(MEMORY, "fakes.yaml"), "--mcp", memoryCommand()]);
    expect(run.stdout).toBe("✓ memory: 22 calls, every answer the same as the real server's\n");
    expect(run.code).toBe(0);
  });

  it("exits 1 naming each call answered differently, with both texts", async () => {
    const dir = copyOfMemory((f) =>
      f.replace("answer: { text: message }", 'answer: { text: "\\"Deleted\\"" }').replace("unknownTool: error-result", "unknownTool: protocol-error"),
    );
    const run = await runCli(["replay", CALLS, "--manifest", join(dir, "fakes.yaml"), "--mcp", memoryCommand()]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `✗ delete_entities {"entityNames":["Analytical Engine","Nobody"]} (${CALLS}#18): content[0] (text) differs\n  real: "Entities deleted successfully"\n  fake: "Deleted"\n`,
    );
    expect(run.stdout).toMatch(
      /✗ forget_everything \{\} .*: the fake refused the call with a JSON-RPC error; the real server answered it\n {2}real: "MCP error -32602: Tool forget_everything not found"\n {2}fake: "JSON-RPC error -32602: Tool forget_everything not found"/,
    );
    expect(run.stdout).toMatch(/^2 of 22 calls answered differently by memory$/m);
  });

  it("refuses a calls file that is not a list of calls, and a missing --mcp", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-replay-"));
    writeFileSync(join(dir, "calls.yaml"), "- args: {}\n");
    const bad = await runCli(["replay", join(dir, "calls.yaml"), "--manifest", join(MEMORY, "fakes.yaml"), "--mcp", "node x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/calls\.yaml#1: a call is \{ tool, args \}/);
    expect((await runCli(["replay", CALLS, "--manifest", join(MEMORY, "fakes.yaml")])).code).toBe(2);
  });
});

describe("eval-simulate observe", { timeout: SLOW }, () => {
  it("writes observed.json from the real server's answers, in the documented format", async () => {
    const dir = copyOfMemory();
    const run = await runCli(["observe", CALLS, "--id", "memory", "--manifest", join(dir, "fakes.yaml"), "--mcp", memoryCommand()]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/wrote .*mcp\/memory\/observed\.json: 9 tools from 20 calls \(2 errors not sampled\)/);
    const observed = loadObserved(join(dir, "mcp/memory/observed.json"));
    expect(observed.tools.read_graph).toMatchObject({ sampled: 3, answer: { format: "structured", text: "json-pretty" } });
    expect(observed.tools.delete_entities.answer).toMatchObject({ format: "structured", text: "text", prefixes: ["Entities deleted successfully"] });
    expect((observed.tools.create_entities.answer.schema as { required: string[] }).required).toEqual(["entities"]);
    expect(run.stdout).not.toContain("recorded servers.memory.observed");
  });

  it("records observed: in the manifest it writes for, keeping its comments", async () => {
    const dir = copyOfMemory((f) => f.replace(/^ {4}observed: .*\n/m, ""));
    expect(readFileSync(join(dir, "fakes.yaml"), "utf8")).not.toContain("observed:");
    const run = await runCli([
      "observe",
      CALLS,
      "--id",
      "memory",
      "--manifest",
      join(dir, "fakes.yaml"),
      "--mcp",
      memoryCommand(),
      "--out",
      join(dir, "seen/memory.json"),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^recorded servers\.memory\.observed in .*fakes\.yaml$/m);
    const manifest = readFileSync(join(dir, "fakes.yaml"), "utf8");
    expect(manifest).toMatch(/^ {4}observed: seen\/memory\.json$/m);
    expect(manifest).toContain("# A fake of the official @modelcontextprotocol/server-memory");
    const again = await runCli(["observe", CALLS, "--id", "memory", "--manifest", join(dir, "fakes.yaml"), "--mcp", memoryCommand()]);
    expect(again.stdout).toMatch(/wrote .*seen\/memory\.json/);
    expect(again.stdout).not.toContain("recorded");
  });

  it("reads each format a text answer can have", () => {
    expect(observeTool([{ text: '{"a":1}' }, { text: '{"a":2,"b":"x"}' }])).toEqual({
      format: "json",
      schema: { type: "object", required: ["a"], properties: { a: { type: "integer" }, b: { type: "string" } } },
    });
    expect(observeTool([{ text: 'Sent! {"id":"m1"}' }])).toMatchObject({ format: "prefixed_json", prefixes: ["Sent! "] });
    expect(observeTool([{ text: "notes[0]:" }])).toMatchObject({ format: "toon", canonical: true });
    expect(observeTool([{ text: "Hello there, friend\nmore" }])).toEqual({ format: "text", prefixes: ["Hello there, friend"] });
    expect(observeTool([{ text: "{}" }, { text: "plain" }])).toEqual({ format: "mixed" });
    expect(observeTool([{ text: '{"ids":{"x-1":1}}' }]).schema).toEqual({
      type: "object",
      required: ["ids"],
      properties: { ids: { type: "object", properties: {}, "x-masked-values": { type: "integer" } } },
    });
  });
});

describe("comparing two answers", { timeout: SLOW }, () => {
  const result = (text: string, extra: Record<string, unknown> = {}) => ({ result: { content: [{ type: "text", text }], isError: false, ...extra } });

  it("compares text byte for byte, isError, block types and structured content (key order aside)", () => {
    expect(answerDifferences(result("a", { structuredContent: { x: 1, y: 2 } }), result("a", { structuredContent: { y: 2, x: 1 } }))).toEqual([]);
    expect(answerDifferences(result("a\n"), result("a"))).toEqual(["content[0] (text) differs"]);
    expect(answerDifferences(result("a"), { result: { content: [{ type: "text", text: "a" }], isError: true } })).toEqual(["isError false vs true"]);
    expect(answerDifferences(result("a"), { result: { content: [{ type: "image", data: "", mimeType: "image/png" }], isError: false } })).toEqual([
      "content blocks [text] vs [image]",
    ]);
    expect(answerDifferences(result("a", { structuredContent: { x: 1 } }), result("a", { structuredContent: { x: 2 } }))).toEqual([
      "structured content differs",
    ]);
  });
});

describe("unknown tools", { timeout: SLOW }, () => {
  it("answer a protocol error by default and a tool error result with unknownTool: error-result, as SDK v1 servers do", async () => {
    services = await serve(join(MEMORY, "fakes.yaml"));
    const client = await connect(services.url("memory"));
    expect(await client.callTool({ name: "nope", arguments: {} })).toEqual({
      content: [{ type: "text", text: "MCP error -32602: Tool nope not found" }],
      isError: true,
    });
    await client.close();
    await services.close();
    services = await serve(new URL("../fixtures/fidelity/fakes.yaml", import.meta.url).pathname);
    const other = await connect(services.url("profiles"));
    await expect(other.callTool({ name: "nope", arguments: {} })).rejects.toThrow(/Tool nope not found/);
    await other.close();
  });
});

describe("calls files", { timeout: SLOW }, () => {
  it("reads a record's JSON lines as calls", () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-calls-"));
    writeFileSync(
      join(dir, "calls.jsonl"),
      '{"server":"memory","tool":"read_graph","args":{},"result":{}}\n{"server":"memory","tool":"open_nodes","args":{"names":[]}}\n',
    );
    expect(readCalls(join(dir, "calls.jsonl")).map((c) => [c.server, c.tool, c.args, c.from.replace(dir, "")])).toEqual([
      ["memory", "read_graph", {}, "/calls.jsonl:1"],
      ["memory", "open_nodes", { names: [] }, "/calls.jsonl:2"],
    ]);
  });
});
