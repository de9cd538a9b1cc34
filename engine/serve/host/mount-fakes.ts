import type { McpEndpointOptions } from "../mcp/index.js";
import type { ApiHandler } from "./api-mount.js";
import { type Fakes, kindName } from "../../author/fakes/index.js";
import type { FetchHandler } from "../http/index.js";
import { FAKE_MOUNTS, type MountedFake } from "./fake-mounts.js";
import type { ServedWorld, WorldOf } from "./request-world.js";

/** Every fake mounted: what the routes serve, and how to stop what was started. */
export interface Mounted {
  mcp: Map<string, FetchHandler>;
  apis: Map<string, { handle: ApiHandler; hosts: readonly string[]; basePath: string }>;
  /** Starts what waits for the port to be open: emulate's built-ins, which listen on ports of their own. */
  start(): Promise<void>;
  /** Stops everything started so far; safe to call after a failed start. */
  close(): Promise<void>;
  /** Ends what the fakes hold for a freed session of the host (its address): its 2025-era MCP sessions. */
  endSessions(address: string): void;
}

/**
 * Mounts each fake once, as its kind mounts it (`FAKE_MOUNTS`): MCP fakes as SDK endpoints, API
 * fakes as emulate custom emulators over their OpenAPI router, emulate built-ins behind a proxy.
 * API calls in flight are aborted when the mount closes, as MCP endpoints abort theirs. Each
 * request runs in the world `worldOf` picks for it; emulate's built-ins hold their own state, so
 * they serve the process's world only.
 */
export async function mountFakes(fakes: Fakes, worldOf: WorldOf, own: ServedWorld, mcpOptions: McpEndpointOptions = {}): Promise<Mounted> {
  const mcp: Mounted["mcp"] = new Map();
  const apis: Mounted["apis"] = new Map();
  const mounts: MountedFake[] = [];
  const stopping = new AbortController();
  const context = { worldOf, own, mcpOptions, stopping: stopping.signal, sessionPaths: !("s" in fakes) };
  const close = async () => {
    stopping.abort(new Error("[eval-simulate] the services are closing"));
    await Promise.allSettled(mounts.map((mounted) => mounted.close?.()));
  };
  try {
    for (const [id, fake] of Object.entries(fakes)) {
      const mounted = await FAKE_MOUNTS[kindName(fake)].mount(id, fake, context);
      mounts.push(mounted);
      const { route } = mounted;
      if ("mcp" in route) mcp.set(id, route.mcp);
      else apis.set(id, { handle: route.api, hosts: route.hosts, basePath: route.basePath });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    mcp,
    apis,
    async start() {
      for (const mounted of mounts) await mounted.start?.();
    },
    close,
    endSessions(address) {
      for (const mounted of mounts) mounted.endSessions?.(address);
    },
  };
}
