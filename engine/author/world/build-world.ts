import { parseClock } from "./clock.js";
import { deepMerge } from "./merge.js";
import { didYouMean } from "../source/index.js";
import { resolveScenarioValues } from "./scenario-values.js";
import { UnknownScenarioError, WorldError } from "./world-error.js";

/** Every fake's state, keyed by fake id, then by entity name. */
export type World = Record<string, Record<string, unknown>>;

/** What building a world needs from a manifest: the fakes' entities and the scenarios. */
export interface WorldSpec {
  fakes: Record<string, { entities: Record<string, { default?: unknown }> }>;
  scenarios: Record<string, { extends?: string; default?: boolean; state?: Record<string, Record<string, unknown>> }>;
}

/** The scenario served when a manifest declares none: the entities' defaults alone. */
export const IMPLICIT_SCENARIO = "default";

/**
 * The names of a spec's scenarios, in declaration order; `["default"]` when it declares none.
 *
 * @example scenarioNames({ fakes: {}, scenarios: {} }) // ["default"]
 */
export function scenarioNames(spec: WorldSpec): string[] {
  const names = Object.keys(spec.scenarios ?? {});
  return names.length > 0 ? names : [IMPLICIT_SCENARIO];
}

/**
 * The scenarios a scenario is built from, root first, following `extends`. Throws on an unknown
 * scenario, an unknown parent, or a cycle (naming it: `a → b → a`).
 *
 * @example scenarioChain(spec, "blocked") // ["quiet", "blocked"]
 */
export function scenarioChain(spec: WorldSpec, name: string): string[] {
  const scenarios = spec.scenarios ?? {};
  if (!Object.hasOwn(scenarios, name)) {
    if (name === IMPLICIT_SCENARIO && Object.keys(scenarios).length === 0) return [];
    throw new UnknownScenarioError(name, scenarioNames(spec));
  }
  const chain = [name];
  for (let parent = scenarios[name]?.extends; parent !== undefined; parent = scenarios[parent]?.extends) {
    const child = chain[chain.length - 1];
    if (!Object.hasOwn(scenarios, parent)) {
      const near = didYouMean(parent, Object.keys(scenarios));
      throw new WorldError(
        "E_UNKNOWN_SCENARIO",
        `scenario ${JSON.stringify(child)} extends ${JSON.stringify(parent)}, which is not a scenario${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}; known: ${Object.keys(scenarios).join(", ")}`,
        { scenario: child },
      );
    }
    const seen = chain.indexOf(parent);
    if (seen !== -1) {
      // The chain was built child first; the cycle reads naturally parent-ward from where it closes.
      const cycle = [...chain.slice(seen), parent];
      throw new WorldError("E_SCENARIO_CYCLE", `scenarios extend each other in a cycle: ${cycle.join(" → ")}`, { scenario: parent });
    }
    chain.push(parent);
  }
  return chain.reverse();
}

/**
 * The scenario served when none is named: the one marked `default: true`; else the first
 * declared (the only one, usually); else the implicit "default". Two marked is an error.
 *
 * @example defaultScenario({ fakes: {}, scenarios: { quiet: {}, busy: { default: true } } }) // "busy"
 */
export function defaultScenario(spec: WorldSpec): string {
  const names = Object.keys(spec.scenarios ?? {});
  const marked = names.filter((name) => spec.scenarios[name]?.default === true);
  if (marked.length > 1) {
    throw new WorldError("E_SCENARIO_DEFAULT", `only one scenario may be default: true; these are: ${marked.join(", ")}`);
  }
  return marked[0] ?? names[0] ?? IMPLICIT_SCENARIO;
}

/**
 * The world of a scenario at a clock: every entity's default, then each scenario of the
 * `extends` chain merged over it, root first (objects deeply, arrays replaced), with special
 * values resolved against the clock. An entity with no default that no scenario sets is absent
 * from its fake's state. Every call returns a fresh world sharing no object with another.
 *
 * @example const world = await buildWorld(spec, "blocked", new Date("2026-10-01T09:00:00Z"));
 */
export async function buildWorld(spec: WorldSpec, scenario: string | undefined, clock: Date): Promise<World> {
  const name = scenario ?? defaultScenario(spec);
  const chain = scenarioChain(spec, name);
  const at = parseClock(clock);
  const world: World = {};
  for (const [fakeId, fake] of Object.entries(spec.fakes)) {
    const state: Record<string, unknown> = {};
    for (const [entity, declared] of Object.entries(fake.entities ?? {})) {
      if (!Object.hasOwn(declared, "default") || declared.default === undefined) continue;
      // Special values in defaults resolve too; each layer resolves before merging so a
      // special value is one leaf, never merged key by key with what it replaces.
      setOwn(state, entity, await resolveScenarioValues(declared.default, at, { path: [fakeId, entity], where: "entity default" }));
    }
    setOwn(world, fakeId, state);
  }
  for (const layer of chain) {
    for (const [fakeId, entities] of Object.entries(spec.scenarios[layer]?.state ?? {})) {
      const fake = knownFake(spec, layer, fakeId);
      for (const [entity, value] of Object.entries(entities ?? {})) {
        knownEntity(fake, layer, fakeId, entity);
        const resolved = await resolveScenarioValues(value, at, { path: [fakeId, entity], scenario: layer });
        const state = world[fakeId];
        setOwn(state, entity, Object.hasOwn(state, entity) ? deepMerge(state[entity], resolved) : resolved);
      }
    }
  }
  return world;
}

/** An own data property even for a name like "__proto__", which plain assignment would treat as the prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function knownFake(spec: WorldSpec, scenario: string, fakeId: string): WorldSpec["fakes"][string] {
  if (Object.hasOwn(spec.fakes, fakeId)) return spec.fakes[fakeId];
  const near = didYouMean(fakeId, Object.keys(spec.fakes));
  throw new WorldError(
    "E_UNKNOWN_FAKE",
    `scenario ${JSON.stringify(scenario)} sets state for ${JSON.stringify(fakeId)}, which is not a server or api${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}; known: ${Object.keys(spec.fakes).join(", ") || "(none)"}`,
    { path: [fakeId], scenario },
  );
}

function knownEntity(fake: WorldSpec["fakes"][string], scenario: string, fakeId: string, entity: string): void {
  const entities = fake.entities ?? {};
  if (Object.hasOwn(entities, entity)) return;
  const near = didYouMean(entity, Object.keys(entities));
  throw new WorldError(
    "E_UNKNOWN_ENTITY",
    `scenario ${JSON.stringify(scenario)} sets ${fakeId}.${entity}, but ${JSON.stringify(fakeId)} declares no entity ${JSON.stringify(entity)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}; its entities: ${Object.keys(entities).join(", ") || "(none)"}`,
    { path: [fakeId, entity], scenario },
  );
}
