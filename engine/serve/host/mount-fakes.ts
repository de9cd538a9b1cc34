import { basePathOf } from "../api/index.js";
import type { McpEndpointOptions } from "../mcp/index.js";
import { sessionIdOf } from "../sessions/index.js";
import { type ApiHandler, mountApiFake } from "./api-mount.js";
import type { Fakes } from "../../author/fakes/index.js";
import type { FetchHandler } from "../http/index.js";
import { mountMcpFake } from "./mcp-mount.js";
import type { ServedWorld, WorldOf } from "./request-world.js";

/** Every fake mounted: what the routes serve, and how to stop what was started. */
export interface Mounted {
  mcp: Map<string, FetchHandler>;
  apis: Map<string, { handle: ApiHandler; hosts: readonly string[]; basePath: string }>;
  /** Starts emulate's built-ins, which listen on ports of their own, once the host's is known. */
  startBuiltIns(): Promise<void>;
  /** Stops everything started so far; safe to call after a failed start. */
  close(): Promise<void>;
}

const starting = (id: string) =>
  new Response(JSON.stringify({ error: "starting", message: `${id} is starting` }), { status: 503, headers: { "content-type": "application/json", "retry-after": "1" } });

const notInSessions = (id: string) =>
  new Response(JSON.stringify({ error: "not_in_sessions", message: `[eval-simulate] ${id} is one of emulate's built-ins, which keep one state of their own: it serves the process's world, not a session's` }), {
    status: 501,
    headers: { "content-type": "application/json" },
  });

/**
 * Mounts each fake once: MCP fakes as SDK endpoints, API fakes as emulate custom emulators over
 * their OpenAPI router, emulate built-ins behind a proxy. API calls in flight are aborted when
 * the mount closes, as MCP endpoints abort theirs. Each request runs in the world `worldOf`
 * picks for it; emulate's built-ins hold their own state, so they serve the process's world only.
 */
export async function mountFakes(fakes: Fakes, worldOf: WorldOf, own: ServedWorld, mcpOptions: McpEndpointOptions = {}): Promise<Mounted> {
  const { scope, evidence } = own;
  const mcp: Mounted["mcp"] = new Map();
  const apis: Mounted["apis"] = new Map();
  const stops: Array<() => Promise<unknown>> = [];
  const stopping = new AbortController();
  const builtIns: Array<{ id: string; service: string; late: { handle?: ApiHandler } }> = [];
  const close = async () => {
    stopping.abort(new Error("[eval-simulate] the services are closing"));
    await Promise.allSettled(stops.map((stop) => stop()));
  };
  try {
    for (const [id, fake] of Object.entries(fakes)) {
      if (fake.kind === "mcp") {
        const endpoint = mountMcpFake(id, fake, worldOf, mcpOptions);
        stops.push(() => endpoint.close());
        mcp.set(id, endpoint.fetch);
      } else if (fake.manifest.emulate) {
        const late: { handle?: ApiHandler } = {};
        builtIns.push({ id, service: fake.manifest.emulate, late });
        const handle: ApiHandler = async (request, base) => (sessionIdOf(request, !("s" in fakes)) !== undefined ? notInSessions(id) : late.handle ? late.handle(request, base) : starting(id));
        apis.set(id, { handle, hosts: fake.manifest.hosts, basePath: "" });
      } else {
        // emulate is loaded only when a manifest has API fakes: MCP-only hosts start without it.
        const { emulateCustom } = await import("./emulate-mount.js");
        const custom = await emulateCustom(id, mountApiFake(fake, worldOf, stopping.signal));
        stops.push(custom.close);
        apis.set(id, { handle: custom.handle, hosts: fake.manifest.hosts, basePath: basePathOf(fake.manifest.document ?? {}) });
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    mcp,
    apis,
    async startBuiltIns() {
      for (const { id, service, late } of builtIns) {
        const { emulateBuiltIn } = await import("./emulate-mount.js");
        const builtIn = await emulateBuiltIn(service, structuredClone(scope.store.states[id]));
        stops.push(builtIn.close);
        late.handle = async (request, base) => {
          const started = Date.now();
          const response = await builtIn.handle(request, base);
          evidence.proxiedCall(id, request, response.status, started);
          return response;
        };
      }
    },
    close,
  };
}
