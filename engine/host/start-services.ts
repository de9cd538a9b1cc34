import type { JournalEntry } from "../journal/journal.js";
import type { McpEndpoint } from "../mcp/index.js";
import type { RuntimeScope } from "../runtime/call-tool.js";
import { FaultSet } from "../stubs/fault-set.js";
import { type StubUsage, StubSet } from "../stubs/stub-set.js";
import { Evidence } from "./evidence.js";
import { basePathOf } from "../api/index.js";
import { type ApiHandler, mountApiFake } from "./api-mount.js";
import { mountMcpFake } from "./mcp-mount.js";
import { type States, StateStore } from "../runtime/state-store.js";
import { parseClock } from "../world/index.js";
import { type FakesInput, normalizeFakes } from "./fakes.js";
import { type FetchHandler, type Listening, listen } from "./http-listen.js";
import { writeManifestDir } from "./manifest-dir.js";
import { hostRoutes } from "./routes.js";
import { writeJsonAtomic } from "./state-files.js";
import { faultsFor, type ServicesOptions, startingStates, stubsFor } from "./starting-states.js";

/** Running fakes: where they are, their state, and how to stop them. */
export interface Services {
  /** `http://<host>:<port>/<id>/mcp`. */
  url(id: string): string;
  /** `http://<host>:<port>/<id><base path>`: an API fake's base URL, for a client given one. */
  baseUrl(id: string): string;
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
  /** The journal: every call's evidence, oldest first (the last `journalLimit`), for one fake or all. */
  calls(id?: string): JournalEntry[];
  /** Each stub of the scenario with how many calls it answered. */
  stubs(): StubUsage[];
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
  const stubs = new StubSet(stubsFor(fakes, scenario, options));
  const faults = new FaultSet(faultsFor(fakes, scenario, options));
  const scope: RuntimeScope = { store, now: clock.toISOString(), scenario, stubs, faults };

  if (options.stateFile) {
    const file = options.stateFile;
    writeJsonAtomic(file, store.states);
    store.onCommit(() => writeJsonAtomic(file, store.states));
  }
  if (options.initialStateFile) writeJsonAtomic(options.initialStateFile, store.initial);
  if (options.manifestDir) writeManifestDir(options.manifestDir, fakes);
  const evidence = new Evidence({ redact: [...(options.redact ?? []), ...Object.values(fakes).flatMap((f) => f.redact ?? [])], journalLimit: options.journalLimit, record: options.record });

  const mcp = new Map<string, FetchHandler>();
  const apis = new Map<string, { handle: ApiHandler; hosts: readonly string[]; basePath: string }>();
  const endpoints: McpEndpoint[] = [];
  const closers: Array<() => Promise<void>> = [];
  const builtIns: Array<{ id: string; service: string; late: { handle?: ApiHandler } }> = [];
  for (const [id, fake] of Object.entries(fakes)) {
    if (fake.kind === "api") {
      if (fake.manifest.emulate) {
        // A built-in listens on its own port: it starts once the host knows its own address.
        const late: { handle?: ApiHandler } = {};
        builtIns.push({ id, service: fake.manifest.emulate, late });
        apis.set(id, { handle: (request, base) => (late.handle as ApiHandler)(request, base), hosts: fake.manifest.hosts, basePath: "" });
        continue;
      }
      // emulate is loaded only when a manifest has API fakes: MCP-only hosts start without it.
      const { emulateCustom } = await import("./emulate-mount.js");
      const custom = await emulateCustom(id, mountApiFake(fake, scope, evidence));
      closers.push(custom.close);
      apis.set(id, { handle: custom.handle, hosts: fake.manifest.hosts, basePath: basePathOf(fake.manifest.document ?? {}) });
      continue;
    }
    const endpoint = mountMcpFake(id, fake, scope, evidence);
    mcp.set(id, endpoint.fetch);
    endpoints.push(endpoint);
  }
  const fetch = hostRoutes({
    mcp,
    apis,
    ids: Object.keys(fakes),
    state: (id) => store.states[id],
    initialState: (id) => store.initial[id],
    calls: (filter) => evidence.calls(filter),
    stubs: (id) => stubs.usage(id),
    adminToken: options.adminToken,
  });
  const listening: Listening = await listen(fetch, { port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
  const origin = `http://${loopbackName(listening.host)}:${listening.port}`;
  for (const { id, service, late } of builtIns) {
    const { emulateBuiltIn } = await import("./emulate-mount.js");
    const builtIn = await emulateBuiltIn(service, structuredClone(store.states[id]));
    late.handle = async (request, base) => {
      const started = Date.now();
      const response = await builtIn.handle(request, base);
      evidence.proxiedCall(id, request, response.status, started);
      return response;
    };
    closers.push(builtIn.close);
  }
  let closing: Promise<void> | undefined;
  return {
    url: (id) => {
      if (!mcp.has(id)) throw new Error(`[eval-simulate] no MCP fake "${id}" is served; served: ${[...mcp.keys()].join(", ")}`);
      return `${origin}/${id}/mcp`;
    },
    baseUrl: (id) => {
      const api = apis.get(id);
      if (!api) throw new Error(`[eval-simulate] no API fake "${id}" is served; served: ${[...apis.keys()].join(", ")}`);
      return `${origin}/${id}${api.basePath}`;
    },
    mcpServers: () => [...mcp.keys()].map((id) => ({ id, transport: "streamable_http" as const, url: `${origin}/${id}/mcp` })),
    states: store.states,
    initial: store.initial,
    scenario,
    clock: scope.now,
    port: listening.port,
    host: listening.host,
    fetch,
    idle: () => store.idle(),
    calls: (id) => evidence.calls(id === undefined ? {} : { fake: id }),
    stubs: () => stubs.usage(),
    close() {
      closing ??= (async () => {
        await listening.close();
        await Promise.all(endpoints.map((e) => e.close()));
        await Promise.all(closers.map((close) => close()));
        await store.idle();
        if (options.stateFile) writeJsonAtomic(options.stateFile, store.states);
        for (const warning of stubs.unusedWarnings(scenario)) (options.warn ?? console.warn)(warning);
      })();
      return closing;
    },
  };
}
