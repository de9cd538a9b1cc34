import { importUserModule } from "../source/index.js";
import { buildWorld, defaultScenario, scenarioChain, scenarioNames, type World, type WorldSpec } from "./build-world.js";
import { parseClock } from "./clock.js";
import { isPlainObject } from "./merge.js";
import { UnknownScenarioError, WorldError } from "./world-error.js";

/**
 * Where worlds come from, whichever way the manifest declares them: `scenarios` in the YAML or
 * a `world` module. The host builds every world through this, at start and on every reset.
 */
export interface WorldSource {
  /** Scenario names, in declaration order. */
  readonly scenarios: string[];
  /** The scenario served when none is named. */
  readonly defaultScenario: string;
  /** A fresh world; an unknown scenario throws UnknownScenarioError; undefined is the default. */
  build(scenario: string | undefined, clock: Date): Promise<World>;
}

/**
 * Worlds from the manifest's `scenarios`. Checks every `extends` chain and the default now, so
 * a broken chain fails at load rather than on the first reset.
 *
 * @example const source = worldFromSpec({ fakes, scenarios }); const world = await source.build(undefined, clock);
 */
export function worldFromSpec(spec: WorldSpec): WorldSource {
  const scenarios = scenarioNames(spec);
  const fallback = defaultScenario(spec);
  for (const name of scenarios) scenarioChain(spec, name);
  return {
    scenarios,
    defaultScenario: fallback,
    build: (scenario, clock) => buildWorld(spec, scenario ?? fallback, clock),
  };
}

/** The signature a world module's `world` export has. */
type WorldFunction = (scenario: string, clock: Date) => unknown;

/**
 * Worlds from a TypeScript or JavaScript module exporting `world(scenario, clock)` (sync or
 * async) and `SCENARIOS` (an array of names, or an object keyed by name), optionally
 * `DEFAULT_SCENARIO` (else the first). Each world is copied through JSON, so two builds share
 * nothing and hold only JSON. Special values (`$date`, …) are not resolved: code has the clock.
 *
 * @example const source = await worldFromModule("/recipe/fakes/scenarios/index.ts");
 */
export async function worldFromModule(file: string): Promise<WorldSource> {
  let loaded: Record<string, unknown>;
  try {
    loaded = await importUserModule(file);
  } catch (error) {
    throw moduleError(file, `could not be loaded: ${(error as Error)?.message ?? String(error)}`, error);
  }
  // A module written as `export default { world, SCENARIOS }` is read the same way.
  const exports = typeof loaded.world !== "function" && isPlainObject(loaded.default) ? loaded.default : loaded;
  const world = exports.world;
  if (typeof world !== "function") throw moduleError(file, "does not export a function world(scenario, clock)");
  const scenarios = scenarioList(file, exports.SCENARIOS);
  const declaredDefault = exports.DEFAULT_SCENARIO;
  if (declaredDefault !== undefined && (typeof declaredDefault !== "string" || !scenarios.includes(declaredDefault))) {
    throw moduleError(file, `exports DEFAULT_SCENARIO ${JSON.stringify(declaredDefault)}, which is not in SCENARIOS (${scenarios.join(", ")})`);
  }
  const fallback = (declaredDefault as string | undefined) ?? scenarios[0];
  return {
    scenarios,
    defaultScenario: fallback,
    async build(scenario, clock) {
      const name = scenario ?? fallback;
      if (!scenarios.includes(name)) throw new UnknownScenarioError(name, scenarios);
      let result: unknown;
      try {
        // A copy of the clock: the module may not move ours.
        result = await (world as WorldFunction)(name, parseClock(clock));
      } catch (error) {
        throw moduleError(file, `world(${JSON.stringify(name)}) threw: ${(error as Error)?.message ?? String(error)}`, error);
      }
      return jsonWorld(file, name, result);
    },
  };
}

function scenarioList(file: string, declared: unknown): string[] {
  const names = Array.isArray(declared) ? declared : isPlainObject(declared) ? Object.keys(declared) : undefined;
  if (names === undefined) throw moduleError(file, "does not export SCENARIOS (an array of scenario names, or an object keyed by name)");
  if (names.length === 0) throw moduleError(file, "exports an empty SCENARIOS");
  const bad = names.find((name) => typeof name !== "string" || name === "");
  if (bad !== undefined) throw moduleError(file, `lists ${JSON.stringify(bad)} in SCENARIOS; names are non-empty strings`);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) throw moduleError(file, `lists ${JSON.stringify(duplicate)} twice in SCENARIOS`);
  return names as string[];
}

/** The module's world as JSON, checked to be fake id → entity → value. */
function jsonWorld(file: string, scenario: string, result: unknown): World {
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(result) ?? "null");
  } catch (error) {
    throw moduleError(file, `world(${JSON.stringify(scenario)}) returned a value that is not JSON: ${(error as Error).message}`, error);
  }
  if (!isPlainObject(copy)) {
    throw moduleError(
      file,
      `world(${JSON.stringify(scenario)}) must return an object keyed by fake id, not ${Array.isArray(copy) ? "an array" : JSON.stringify(copy)}`,
    );
  }
  for (const [fakeId, state] of Object.entries(copy)) {
    if (!isPlainObject(state)) {
      throw moduleError(file, `world(${JSON.stringify(scenario)}).${fakeId} must be an object keyed by entity name`);
    }
  }
  return copy as World;
}

function moduleError(file: string, message: string, cause?: unknown): WorldError {
  return new WorldError("E_WORLD_MODULE", `world module ${file} ${message}`, { cause });
}
