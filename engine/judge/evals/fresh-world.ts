import type { CompiledApi } from "../../serve/api/index.js";
import { compileApi } from "../../serve/api/index.js";
import type { LoadedFakes } from "../../author/fakes/index.js";
import { startingStates } from "../../serve/host/index.js";
import type { ApiManifest, ServerManifest } from "../../author/model/index.js";
import { type CompiledServer, compileServer, StateStore } from "../../serve/runtime/index.js";
import type { States } from "../../serve/runtime/index.js";
import { parseClock } from "../../author/world/index.js";

// A judge checks many runs of the same fakes: their worlds and compiled schemas are built once.
const worlds = new WeakMap<object, Map<string, Promise<States>>>();
const servers = new WeakMap<ServerManifest, CompiledServer>();
const apis = new WeakMap<ApiManifest, CompiledApi>();

/**
 * The world a scenario starts from at a clock, built once per loaded fakes and frozen (callers
 * get the same object: a state store shares its frozen values instead of copying them, so a
 * golden replay copies only the records its calls change).
 *
 * @example const states = await freshWorld(fakes, "quiet", "2026-10-01T09:00:00Z");
 */
export function freshWorld(loaded: LoadedFakes, scenario: string | undefined, clock: string): Promise<States> {
  let byKey = worlds.get(loaded.world);
  if (!byKey) worlds.set(loaded.world, (byKey = new Map()));
  const key = `${scenario ?? ""}\n${clock}`;
  let states = byKey.get(key);
  if (!states) {
    states = startingStates(loaded.fakes, { world: loaded.world, scenario }, parseClock(clock)).then((s) => new StateStore(s.states).initial);
    // A failure is not kept: the next call says why again.
    states.catch(() => byKey!.delete(key));
    byKey.set(key, states);
  }
  return states;
}

/** An MCP fake compiled once per manifest. */
export function compiledServer(manifest: ServerManifest): CompiledServer {
  let compiled = servers.get(manifest);
  if (!compiled) servers.set(manifest, (compiled = compileServer(manifest)));
  return compiled;
}

/** An API fake compiled once per manifest. */
export function compiledApi(manifest: ApiManifest): CompiledApi {
  let compiled = apis.get(manifest);
  if (!compiled) apis.set(manifest, (compiled = compileApi(manifest)));
  return compiled;
}
