import type { JournalEntry } from "../journal/index.js";
import type { RuntimeScope } from "../runtime/index.js";
import type { SessionOptions } from "../sessions/index.js";
import { type ServedWorld, worldResolver } from "./request-world.js";
import type { Session } from "./session-handle.js";
import { sessionHost } from "./session-host.js";
import { FaultSet } from "../stubs/index.js";
import { type StubUsage, StubSet } from "../stubs/index.js";
import { Evidence } from "./evidence.js";
import { mountFakes } from "./mount-fakes.js";
import { DEFAULT_MAX_WORLD_BYTES, type States, StateStore } from "../runtime/index.js";
import { parseClock } from "../../author/world/index.js";
import { type FakesInput, normalizeFakes, selectFakes } from "../../author/fakes/index.js";
import { type FetchHandler, type Listening, listen } from "../http/index.js";
import { writeManifestDir } from "./manifest-dir.js";
import { hostRoutes } from "./routes.js";
import { withInspector } from "../inspect/index.js";
import { ModelEndpoints } from "../models/index.js";
import { parseAllowedOrigins } from "../mcp/index.js";
import { browserGuard, parseAllowedHosts } from "./browser-guard.js";
import { inspectedWorlds } from "./inspected-worlds.js";
import { writeJsonAtomic } from "./state-files.js";
import { DurableStateFile } from "./durable-state.js";
import { commitPatches } from "./record-changes.js";
import { faultsFor, type ServicesOptions, startingStates, stubsFor } from "./starting-states.js";

/** Running fakes: where they are, their state, and how to stop them. */
export interface Services {
  /** `http://<host>:<port>/<id>/mcp`. */
  url(id: string): string;
  /** `http://<host>:<port>/<id><base path>`: an API fake's base URL, for a client given one. */
  baseUrl(id: string): string;
  /** Every MCP fake, as an agent harness binds it. */
  mcpServers(): Array<{ id: string; transport: "streamable_http"; url: string }>;
  /** The id of every fake served (all of them, or the `fakes` subset), in the manifest's order. */
  served: readonly string[];
  /**
   * The live state by fake id (entity values are read-only; they are replaced as calls commit).
   * Each is frozen, except a large entity (4,096 keys or more) a TypeScript handler wrote: a
   * read-only Proxy over it that `Object.isFrozen` calls unfrozen and `structuredClone` cannot
   * copy (`JSON.parse(JSON.stringify(…))` can; docs/manifest.md, "Large entities").
   */
  states: States;
  /** The state each fake started from. */
  initial: States;
  scenario: string;
  /** The clock, ISO 8601. */
  clock: string;
  port: number;
  host: string;
  /** `http://<host>:<port>` as this machine reaches it (loopback for a wildcard address). */
  origin: string;
  /** The host as a function, for in-process requests. */
  fetch: FetchHandler;
  /** Whether the inspector page is served at `/_inspect`. */
  inspector: boolean;
  /** Resolves when every call in flight has finished. */
  idle(): Promise<void>;
  /** The journal: every call's evidence, oldest first (the last `journalLimit`), for one fake or all. */
  calls(id?: string): JournalEntry[];
  /** Each stub of the scenario with how many calls it answered. */
  stubs(): StubUsage[];
  /** A fresh, isolated world for one trial, served under `/s/<sid>/` (see "Many trials at once"). */
  createSession(options?: SessionOptions): Promise<Session>;
  /** Which sessions answer model requests at `/s/<address>/models/...` (engine/serve/models/), and with what. */
  models: ModelEndpoints;
  close(): Promise<void>;
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
  const every = normalizeFakes(input);
  // A subset is the manifest with only those fakes: nothing of the others is mounted or written.
  const fakes = options.fakes === undefined ? every : selectFakes(every, options.fakes);
  // Read before anything starts: a bad entry leaves nothing to stop.
  parseAllowedHosts(options.allowedHosts ?? []);
  parseAllowedOrigins(options.allowedOrigins ?? []);
  const clock = parseClock(options.clock);
  const maxWorldBytes = options.maxWorldBytes ?? DEFAULT_MAX_WORLD_BYTES;
  if (!Number.isSafeInteger(maxWorldBytes) || maxWorldBytes < 1)
    throw new Error(`[eval-simulate] maxWorldBytes must be a positive integer, not ${String(options.maxWorldBytes)}`);
  const { states, initial, scenario } = await startingStates(fakes, options, clock);
  const store = new StateStore(states, initial, false, { maxBytes: maxWorldBytes });
  const stubs = new StubSet(stubsFor(fakes, scenario, options));
  const faults = new FaultSet(faultsFor(fakes, scenario, options));
  const scope: RuntimeScope = { store, now: clock.toISOString(), scenario, stubs, faults };

  const warn = options.warn ?? console.warn;
  // Each commit is appended to the state file's log before its call is answered, so a run killed
  // at any moment leaves every acknowledged commit; the whole world is written only now, in the
  // background now and then, and at close. A write that fails is reported, and the call stands.
  const durable = options.stateFile ? new DurableStateFile(options.stateFile, () => store.states, { warn }) : undefined;
  if (durable) {
    durable.start();
    store.onCommit((fake, commit) => durable.append(fake, commitPatches(commit)));
  }
  if (options.initialStateFile) writeJsonAtomic(options.initialStateFile, store.initial);
  if (options.manifestDir) writeManifestDir(options.manifestDir, fakes);
  const evidence = new Evidence({
    redact: [...(options.redact ?? []), ...Object.values(fakes).flatMap((f) => f.redact ?? [])],
    journalLimit: options.journalLimit,
    record: options.record,
    onRecord: options.onRecord,
    warn: options.warn,
  });

  const own: ServedWorld = { scope, evidence, callCount: () => evidence.journal.total };
  // A request's world is looked up when it arrives, which is after the sessions below exist.
  const mounted = await mountFakes(
    fakes,
    worldResolver(own, () => sessions.registry, !("s" in fakes)),
    own,
    { allowedOrigins: options.allowedOrigins },
  );
  const { mcp, apis } = mounted;
  const served = { mcp: [...mcp.keys()], apis: Object.fromEntries([...apis].map(([id, api]) => [id, api.basePath])) };
  let origin = "";
  const sessions = sessionHost({
    fakes,
    options,
    scenario: options.resume ? undefined : scenario,
    clock,
    evidence,
    served,
    origin: () => origin,
    maxWorldBytes,
    // A freed session's 2025-era MCP sessions end with it, and let go of its world.
    onFreed: (address) => mounted.endSessions(address),
  });
  const models = new ModelEndpoints();
  const routes = hostRoutes({
    mcp,
    apis,
    ids: Object.keys(fakes),
    state: (id) => store.states[id],
    initialState: (id) => store.initial[id],
    calls: (filter) => evidence.calls(filter),
    stubs: (id) => stubs.usage(id),
    adminToken: options.adminToken,
    sessions: sessions.hook,
    onOutside: sessions.outside,
    sessionsOnly: options.sessionsOnly,
    models: (session, segments, request) => {
      if (!models.serves(session)) sessions.outside(session, "unserved", request);
      return models.handle(session, segments, request);
    },
  });
  const inspected = options.inspect
    ? withInspector(routes, {
        adminToken: options.adminToken,
        results: options.inspectResults,
        readResults: options.inspectResultsReader,
        worlds: () => inspectedWorlds(fakes, own, scenario, () => sessions.registry.list()),
      })
    : routes;
  // Every route behind the Host and Origin checks, the inspector's included.
  const fetch = browserGuard(inspected, {
    allowedOrigins: options.allowedOrigins,
    allowedHosts: options.allowedHosts,
    apiHosts: [...apis.values()].flatMap((api) => api.hosts),
    bound: options.host ?? "127.0.0.1",
  });
  let listening: Listening;
  try {
    listening = await listen(fetch, { port: options.port ?? 0, host: options.host ?? "127.0.0.1", limits: options.http });
  } catch (error) {
    await Promise.allSettled([mounted.close(), sessions.close()]);
    throw error;
  }
  origin = listening.url;
  try {
    await mounted.start();
  } catch (error) {
    // A failed start leaves no port open.
    await Promise.allSettled([listening.close(), mounted.close(), sessions.close()]);
    throw error;
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
    served: Object.keys(fakes),
    states: store.states,
    initial: store.initial,
    scenario,
    clock: scope.now,
    port: listening.port,
    host: listening.host,
    origin,
    fetch,
    inspector: options.inspect === true,
    idle: () => store.idle(),
    calls: (id) => evidence.calls(id === undefined ? {} : { fake: id }),
    stubs: () => stubs.usage(),
    createSession: (sessionOptions) => sessions.create(sessionOptions),
    models,
    close() {
      closing ??= (async () => {
        await listening.close();
        await mounted.close();
        await sessions.close();
        await store.idle();
        durable?.close();
        for (const warning of stubs.unusedWarnings(scenario)) warn(warning);
      })();
      return closing;
    },
  };
}
