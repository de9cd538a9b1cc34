/**
 * `eval-simulate serve --stdio <fake>`: one fake over stdin and stdout, started the way an agent's
 * `mcpServers` config starts a server, spoken to by the official client's stdio transport: its
 * tools, prompts, state, a question to the client answered over the same pipe, and the journal on
 * the loopback port the process keeps for its admin routes.
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";
import { textOf } from "../support/services.js";
import { CLI, runCli } from "../support/cli-process.js";

// Each test starts a CLI process that loads a TypeScript handlers module: slow on a loaded machine.
const SLOW = { timeout: 120_000 };
const FIXTURE = new URL("../fixtures/protocol/fakes.yaml", import.meta.url).pathname;

/** An agent-style config, as Claude Desktop, Cursor and most agents write it. */
const config = {
  mcpServers: {
    notes: { command: process.execPath, args: [CLI, "serve", FIXTURE, "--stdio", "notes", "--clock", "2026-10-01T09:00:00.000Z"], env: { NO_COLOR: "1" } },
  },
};

/** The official client over stdio, started from one entry of the config, answering elicitation as scripted. */
async function start(entry: (typeof config)["mcpServers"]["notes"], mode: "legacy" | "auto"): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: "stdio-agent", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } });
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirm: true } }));
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: { ...process.env, ...entry.env } as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe.each(["legacy", "auto"] as const)("serve --stdio, the client negotiating %s", SLOW, (mode) => {
  it("serves the fake's tools, prompts and state over stdio, and keeps the journal on its port", async () => {
    const { client, stderr } = await start(config.mcpServers.notes, mode);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add-note", "confirm-delete", "summarise", "slow-count"]);
      expect(textOf(await client.callTool({ name: "add-note", arguments: { title: "Retro" } }))).toBe('{"added":"Retro"}');
      const digest = await client.getPrompt({ name: "digest" });
      expect(digest.messages[0].content).toEqual({ type: "text", text: "Notes: Kickoff, Budget, Retro" });
      // What serve prints is on stderr, stdout holding the protocol alone; the port names the journal.
      const origin = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr())?.[1];
      expect(origin).toBeDefined();
      const { calls } = (await (await fetch(`${origin}/notes/admin/calls`)).json()) as { calls: Array<{ name: string }> };
      expect(calls.map((call) => call.name)).toContain("add-note");
    } finally {
      await client.close();
    }
  });
});

describe("asking the client over stdio", SLOW, () => {
  it("elicits over the same pipe and acts on the answer", async () => {
    const { client } = await start(config.mcpServers.notes, "legacy");
    try {
      expect(textOf(await client.callTool({ name: "confirm-delete", arguments: {} }))).toBe("deleted every note");
    } finally {
      await client.close();
    }
  });
});

describe("serve --stdio refusals", SLOW, () => {
  it("names the MCP fakes when --stdio names none of them", async () => {
    const run = await runCli(["serve", FIXTURE, "--stdio", "nope"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--stdio names an MCP fake of the manifest, not "nope" \(its MCP fakes: notes\)/);
  });
});
