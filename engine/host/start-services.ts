import type { ToolResult } from "../handlers/typescript-handlers.js";
import { createMcpEndpoint, ToolNotFoundError as McpToolNotFound } from "../mcp/index.js";
import { type CallOutcome, callTool, ToolNotFoundError } from "../runtime/call-tool.js";
import { compileServer } from "../runtime/compiled-fake.js";
import { type States, StateStore } from "../runtime/state-store.js";
import { parseClock } from "../world/index.js";
import { type FakesInput, normalizeFakes } from "./fakes.js";
import { type FetchHandler, type Listening, listen } from "./http-listen.js";
import { writeManifestDir } from "./manifest-dir.js";
import { hostRoutes } from "./routes.js";
import { appendJsonLine, prepareRecordFile, writeJsonAtomic } from "./state-files.js";
import { type ServicesOptions, startingStates } from "./starting-states.js";

/** Running fakes: where they are, their state, and how to stop them. */
export interface Services {
  /** `http://<host>:<port>/<id>/mcp`. */
  url(id: string): string;
  /** Every MCP fake, as an agent harness binds it. */
  mcpServers(): Array<{ id: string; transport: "streamable_http"; url: string }>;
  /** The live state by fake id (entity values are frozen; they are replaced as calls commit). */
  states: States;
  /** The state each fake started from. */
  initial: States;
  scenario: string;
  /** The clock, ISO 8601. */
  clock: string;
  port: number;
  host: string;
  /** The host as a function, for in-process requests. */
  fetch: FetchHandler;
  /** Resolves when every call in flight has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

function loopbackName(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Serves every fake on one port: each MCP fake at `/<id>/mcp`, its state at
 * `/<id>/admin/state`, and `/health`. Everything a request needs is built here, once.
 *
 * @example
 * const { fakes, world } = await loadFakes("fakes/fakes.yaml");
 * const services = await startServices(fakes, { world, scenario: "quiet" });
 * services.url("notes"); // http://127.0.0.1:<port>/notes/mcp
 */
export async function startServices(input: FakesInput, options: ServicesOptions = {}): Promise<Services> {
  const fakes = normalizeFakes(input);
  const clock = parseClock(options.clock);
  const { states, initial, scenario } = await startingStates(fakes, options, clock);
  const store = new StateStore(states, initial);
  const scope = { store, now: clock.toISOString(), scenario };

  if (options.stateFile) {
    const file = options.stateFile;
    writeJsonAtomic(file, store.states);
    store.onCommit(() => writeJsonAtomic(file, store.states));
  }
  if (options.initialStateFile) writeJsonAtomic(options.initialStateFile, store.initial);
  if (options.record) prepareRecordFile(options.record);
  if (options.manifestDir) writeManifestDir(options.manifestDir, fakes);
  const record = (line: unknown) => options.record && appendJsonLine(options.record, line);

  const mcp = new Map<string, FetchHandler>();
  const endpoints: Array<{ close(): Promise<void> }> = [];
  for (const [id, fake] of Object.entries(fakes)) {
    const compiled = compileServer(fake.manifest);
    const endpoint = createMcpEndpoint({
      id,
      serverInfo: { name: id, version: "1.0.0" },
      tools: fake.manifest.tools.map((tool) => tool.captured),
      async callTool(name, args, extra) {
        let outcome: CallOutcome;
        try {
          outcome = await callTool(scope, compiled, name, args, extra.signal);
        } catch (error) {
          if (error instanceof ToolNotFoundError) {
            record({ server: id, tool: name, args, result: { error: { code: error.code, message: error.message } } });
            throw new McpToolNotFound(name);
          }
          throw error;
        }
        record({ server: id, tool: name, args: outcome.args, result: outcome.result });
        return outcome.result as ToolResult;
      },
    });
    mcp.set(id, endpoint.fetch);
    endpoints.push(endpoint);
  }
  const fetch = hostRoutes({
    mcp,
    ids: Object.keys(fakes),
    state: (id) => store.states[id],
    initialState: (id) => store.initial[id],
  });
  const listening: Listening = await listen(fetch, { port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
  const origin = `http://${loopbackName(listening.host)}:${listening.port}`;
  let closing: Promise<void> | undefined;
  return {
    url: (id) => {
      if (!fakes[id]) throw new Error(`[eval-simulate] no fake "${id}" is served; served: ${Object.keys(fakes).join(", ")}`);
      return `${origin}/${id}/mcp`;
    },
    mcpServers: () => Object.keys(fakes).map((id) => ({ id, transport: "streamable_http" as const, url: `${origin}/${id}/mcp` })),
    states: store.states,
    initial: store.initial,
    scenario,
    clock: scope.now,
    port: listening.port,
    host: listening.host,
    fetch,
    idle: () => store.idle(),
    close() {
      closing ??= (async () => {
        await listening.close();
        await Promise.all(endpoints.map((e) => e.close()));
        await store.idle();
        if (options.stateFile) writeJsonAtomic(options.stateFile, store.states);
      })();
      return closing;
    },
  };
}
