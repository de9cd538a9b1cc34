import { loadManifest, type LoadOptions } from "../manifest/index.js";
import type { Manifest } from "../model/index.js";
import type { Fakes, ManifestWorld } from "./fakes.js";

/** A manifest turned into what `startServices` serves. */
export interface LoadedFakes {
  fakes: Fakes;
  /** The worlds, and each scenario's stubs: pass it to startServices as `world`. */
  world: ManifestWorld;
  /** The scenario names, the default first. */
  scenarios: string[];
  manifest: Manifest;
}

/**
 * Loads a fakes.yaml into the fakes, world and scenarios `startServices` takes; throws a
 * ManifestError carrying every diagnostic when the manifest is invalid.
 *
 * @example
 * const { fakes, world } = await loadFakes("fakes/fakes.yaml");
 * const services = await startServices(fakes, { world });
 */
export async function loadFakes(path: string, options: LoadOptions = {}): Promise<LoadedFakes> {
  const manifest = await loadManifest(path, options);
  const fakes: Fakes = {};
  for (const server of manifest.servers) fakes[server.id] = { kind: "mcp", manifest: server, redact: manifest.redact };
  for (const api of manifest.apis) fakes[api.id] = { kind: "api", manifest: api, redact: manifest.redact };
  const world: ManifestWorld = {
    scenarios: manifest.world.scenarios,
    defaultScenario: manifest.world.defaultScenario,
    build: (scenario, clock) => manifest.world.build(scenario, clock),
    stubs: Object.fromEntries(manifest.scenarios.map((s) => [s.name, s.stubs])),
    faults: Object.fromEntries(manifest.scenarios.map((s) => [s.name, s.faults])),
  };
  const scenarios = [manifest.world.defaultScenario, ...manifest.world.scenarios.filter((s) => s !== manifest.world.defaultScenario)];
  return { fakes, world, scenarios, manifest };
}
