import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { RUN_FILES, runDirOptions } from "../../engine/serve/host/run-dir.js";
import { startServe } from "./cli-process.js";
import { CLOCK, connect, serve } from "./services.js";

/** One scripted call: `server/tool` and its arguments. */
export interface ScriptedCall {
  tool: string;
  args?: Record<string, unknown>;
}

/**
 * What a recorded run does: scripted calls (a tool's error, or a tool the fake lacks, is part of
 * the run, not a failure of it), or a function handed a connected official client per MCP fake
 * (what it throws fails the test).
 */
export type Drive = readonly ScriptedCall[] | ((clients: Record<string, Client>) => Promise<void>);

export interface RecordOptions {
  scenario?: string;
  /** The fakes' clock; `CLOCK` unless given. */
  clock?: string;
  /** The agent's final message, written to the folder's `answer.txt`. */
  answer?: string;
  /** The run folder; a fresh temporary one unless given. */
  dir?: string;
  /**
   * Where the fakes run: `process` (the default) is a real `eval-simulate serve --run-dir` from
   * dist/, stopped with SIGTERM (which flushes the state file), as a harness runs it;
   * `in-process` starts the same services in the test's own process, with the same run folder.
   */
  serve?: "process" | "in-process";
}

/** A finished run, as a verifier finds it: a run folder (`serve --run-dir`'s fixed names). */
export interface RecordedRun {
  dir: string;
  /** The fakes.yaml that was served. */
  manifest: string;
  /** The `record` file. */
  record: string;
  /** What `manifestDir` wrote. */
  manifestDir: string;
  /** The parsed initial and final state files. */
  readonly states: { initial: Record<string, Record<string, unknown>>; final: Record<string, Record<string, unknown>> };
}

/** The fakes a running serve listed in its start-up lines (`  crm   http://…/crm/mcp`). */
function listedServers(stdout: string): Array<{ id: string; url: string }> {
  return [...stdout.matchAll(/^\s+(\S+)\s+(http:\/\/\S+\/mcp)\s*$/gm)].map(([, id, url]) => ({ id, url }));
}

/**
 * Records a run of `manifest` into a run folder: serves it (see `serve`), drives it with the
 * official MCP client over HTTP, stops it, and writes the agent's `answer.txt` when given.
 *
 * @example const { dir } = await recordRun(CRM, [{ tool: "crm/list-notes" }], { answer: "Done." });
 */
export async function recordRun(manifest: string, drive: Drive, options: RecordOptions = {}): Promise<RecordedRun> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "eval-simulate-run-"));
  const clock = options.clock ?? CLOCK;
  let servers: Array<{ id: string; url: string }>;
  let stop: () => Promise<unknown>;
  if (options.serve === "in-process") {
    const services = await serve(manifest, { ...runDirOptions(dir), clock, ...(options.scenario ? { scenario: options.scenario } : {}) });
    servers = services.mcpServers();
    stop = () => services.close();
  } else {
    const args = [manifest, "--run-dir", dir, "--clock", clock, ...(options.scenario ? ["--scenario", options.scenario] : [])];
    const served = await startServe(args);
    servers = listedServers(served.stdout());
    stop = () => (served.child.kill("SIGTERM"), served.exited);
  }
  const clients = new Map<string, Client>();
  const client = async (id: string): Promise<Client> => {
    const url = servers.find((server) => server.id === id)?.url;
    if (!url) throw new Error(`[test] ${manifest} serves no MCP fake "${id}"`);
    if (!clients.has(id)) clients.set(id, await connect(url));
    return clients.get(id)!;
  };
  try {
    if (typeof drive === "function") {
      const all: Record<string, Client> = {};
      for (const { id } of servers) all[id] = await client(id);
      await drive(all);
    } else {
      for (const call of drive) {
        const [server, ...rest] = call.tool.split("/");
        await (await client(server)).callTool({ name: rest.join("/"), arguments: call.args ?? {} }).catch(() => undefined);
      }
    }
  } finally {
    await Promise.allSettled([...clients.values()].map((c) => c.close()));
    await stop();
  }
  if (options.answer !== undefined) writeFileSync(join(dir, RUN_FILES.answer), `${options.answer}\n`);
  const files = runDirOptions(dir);
  const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));
  return {
    dir,
    manifest,
    record: files.record,
    manifestDir: files.manifestDir,
    get states() {
      return { initial: json(files.initialStateFile), final: json(files.stateFile) };
    },
  };
}
