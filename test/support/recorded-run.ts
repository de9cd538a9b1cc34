import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { startServe } from "./cli-process.js";
import { connect } from "./services.js";

/** One scripted call: `server/tool` and its arguments. */
export interface ScriptedCall {
  tool: string;
  args?: Record<string, unknown>;
}

/**
 * Records a real run: starts `eval-simulate serve --run-dir` as a process, drives it with the
 * official MCP client over HTTP through `calls` (tool errors and unknown tools included), stops
 * it with SIGTERM (which flushes the state file), and writes the agent's `answer.txt`.
 */
export async function recordRun(manifest: string, calls: readonly ScriptedCall[], options: { scenario?: string; clock?: string; answer?: string; dir?: string } = {}): Promise<string> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "eval-simulate-run-"));
  const args = [manifest, "--run-dir", dir, "--clock", options.clock ?? "2026-10-01T09:00:00.000Z", ...(options.scenario ? ["--scenario", options.scenario] : [])];
  const serve = await startServe(args);
  const clients = new Map<string, Client>();
  try {
    for (const call of calls) {
      const [server, ...rest] = call.tool.split("/");
      let client = clients.get(server);
      if (!client) clients.set(server, (client = await connect(`http://127.0.0.1:${serve.port}/${server}/mcp`)));
      await client.callTool({ name: rest.join("/"), arguments: call.args ?? {} }).catch(() => undefined);
    }
  } finally {
    await Promise.allSettled([...clients.values()].map((c) => c.close()));
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  if (options.answer !== undefined) writeFileSync(join(dir, "answer.txt"), `${options.answer}\n`);
  return dir;
}
