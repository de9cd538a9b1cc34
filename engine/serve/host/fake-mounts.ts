/**
 * How each kind of fake is mounted on the port: the serving layer's registry, keyed by the same
 * names as the author layer's `FAKE_KINDS`. MCP fakes become SDK endpoints, API fakes emulate
 * custom emulators over their OpenAPI router, emulate's built-ins a proxy to the service emulate
 * starts once the port is open.
 */
import { plainEntities } from "../../core/record/index.js";
import { loadMcpSdk } from "../../author/contract/index.js";
import { basePathOf } from "../api/index.js";
import type { McpEndpointOptions } from "../mcp/index.js";
import { sessionIdOf } from "../sessions/index.js";
import { type ApiHandler, mountApiFake } from "./api-mount.js";
import type { ApiFake, Fake, FakeKindName, McpFake } from "../../author/fakes/index.js";
import type { FetchHandler } from "../http/index.js";
import { mountMcpFake } from "./mcp-mount.js";
import type { ServedWorld, WorldOf } from "./request-world.js";

/** What a kind's mount is given: where each request's world comes from, and the host's own. */
export interface MountContext {
  worldOf: WorldOf;
  /** The process's own world: an emulate built-in is seeded from it and serves only it. */
  own: ServedWorld;
  mcpOptions: McpEndpointOptions;
  /** Aborted when the services close: API calls in flight end with it, as MCP endpoints end theirs. */
  stopping: AbortSignal;
  /** Whether `/s/<address>/` paths address sessions (no fake is called `s`). */
  sessionPaths: boolean;
}

/** One fake mounted: what the routes answer with, and what starts and stops it. */
export interface MountedFake {
  /** An MCP endpoint at `/<id>/mcp`, or an HTTP handler below `/<id>` (and on its `hosts`). */
  route: { mcp: FetchHandler } | { api: ApiHandler; hosts: readonly string[]; basePath: string };
  /** Starts what needs the port open first (emulate's built-ins listen on ports of their own). */
  start?(): Promise<void>;
  /** Stops what the mount started; safe to call when `start` never ran. */
  close?(): Promise<unknown>;
  /** Ends what the mount holds for a session of the host that was freed (its address): 2025-era MCP sessions. */
  endSessions?(address: string): void;
}

/** How one kind of fake is served. */
export interface FakeMount<F extends Fake = Fake> {
  mount(id: string, fake: F, context: MountContext): Promise<MountedFake>;
}

const starting = (id: string) =>
  new Response(JSON.stringify({ error: "starting", message: `${id} is starting` }), {
    status: 503,
    headers: { "content-type": "application/json", "retry-after": "1" },
  });

const notInSessions = (id: string) =>
  new Response(
    JSON.stringify({
      error: "not_in_sessions",
      message: `[eval-simulate] ${id} is one of emulate's built-ins, which keep one state of their own: it serves the process's world, not a session's`,
    }),
    {
      status: 501,
      headers: { "content-type": "application/json" },
    },
  );

const mcpMount: FakeMount<McpFake> = {
  async mount(id, fake, { worldOf, mcpOptions, sessionPaths }) {
    // The SDK is loaded by the first MCP fake mounted, not by importing the engine.
    await loadMcpSdk();
    // 2025-era MCP sessions are counted by the world they were opened in (its address), so one trial's make room from its own.
    const endpoint = mountMcpFake(id, fake, worldOf, { ...mcpOptions, sessionOwner: (request) => sessionIdOf(request, sessionPaths) ?? "" });
    return { route: { mcp: endpoint.fetch }, close: () => endpoint.close(), endSessions: (address) => endpoint.endSessions(address) };
  },
};

const apiMount: FakeMount<ApiFake> = {
  async mount(id, fake, { worldOf, stopping }) {
    // emulate is loaded only when a manifest has API fakes: MCP-only hosts start without it.
    const { emulateCustom } = await import("./emulate-mount.js");
    const custom = await emulateCustom(id, mountApiFake(fake, worldOf, stopping));
    return { route: { api: custom.handle, hosts: fake.manifest.hosts, basePath: basePathOf(fake.manifest.document ?? {}) }, close: custom.close };
  },
};

const emulateMount: FakeMount<ApiFake> = {
  async mount(id, fake, { own, sessionPaths }) {
    const service = fake.manifest.emulate!;
    let started: { handle: ApiHandler; close(): Promise<void> } | undefined;
    const handle: ApiHandler = async (request, base) =>
      sessionIdOf(request, sessionPaths) !== undefined ? notInSessions(id) : started ? started.handle(request, base) : starting(id);
    return {
      route: { api: handle, hosts: fake.manifest.hosts, basePath: "" },
      async start() {
        const { emulateBuiltIn } = await import("./emulate-mount.js");
        const state = own.scope.store.states[id];
        const builtIn = await emulateBuiltIn(service, structuredClone(state && plainEntities(state)));
        started = {
          handle: async (request, base) => {
            const at = Date.now();
            const response = await builtIn.handle(request, base);
            own.evidence.proxiedCall(id, request, response.status, at);
            return response;
          },
          close: builtIn.close,
        };
      },
      close: async () => started?.close(),
    };
  },
};

/** Every kind's mount, by kind name. */
export const FAKE_MOUNTS: Readonly<Record<FakeKindName, FakeMount>> = { mcp: mcpMount, api: apiMount, emulate: emulateMount };
