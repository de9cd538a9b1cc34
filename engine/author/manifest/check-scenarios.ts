import type { ManifestDocument } from "../../../schema/manifest.js";
import { checkScenarioValues, type WorldSpec } from "../world/index.js";
import { suggestion } from "../source/index.js";
import type { LoadContext } from "./load-context.js";
import type { PathSegment } from "../source/index.js";
import { checkFaults, checkStubs, type FakeIndex } from "./check-stubs.js";

export type { FakeIndex } from "./check-stubs.js";
import type { ScenarioManifest } from "../model/index.js";

type ScenariosDocument = NonNullable<ManifestDocument["scenarios"]>;

/** Finds every `extends` that names an unknown scenario or closes a cycle. */
function checkExtends(scenarios: ScenariosDocument, context: LoadContext): void {
  const names = Object.keys(scenarios);
  const reported = new Set<string>();
  for (const [name, scenario] of Object.entries(scenarios)) {
    if (typeof scenario?.extends !== "string") continue;
    if (!Object.hasOwn(scenarios, scenario.extends)) {
      context.report.error(
        "E_UNKNOWN_SCENARIO",
        ["scenarios", name, "extends"],
        `"${name}" extends "${scenario.extends}", which is not a scenario.${suggestion(scenario.extends, names)}`,
      );
      continue;
    }
    const seen = [name];
    for (let current: string | undefined = scenario.extends; current !== undefined && Object.hasOwn(scenarios, current); current = scenarios[current].extends) {
      if (current === name) {
        const key = [...seen].sort().join();
        if (!reported.has(key)) {
          reported.add(key);
          context.report.error(
            "E_SCENARIO_CYCLE",
            ["scenarios", name, "extends"],
            `the scenarios extend each other in a cycle: ${[...seen, name].join(" → ")}`,
          );
        }
        break;
      }
      // A cycle that does not pass through `name` is reported from one of its own members.
      if (seen.includes(current)) break;
      seen.push(current);
    }
  }
}

function checkDefaults(scenarios: ScenariosDocument, context: LoadContext): void {
  const marked = Object.entries(scenarios)
    .filter(([, s]) => s?.default === true)
    .map(([name]) => name);
  if (marked.length > 1) {
    for (const name of marked.slice(1)) {
      context.report.error("E_SCENARIO_DEFAULT", ["scenarios", name, "default"], `"${name}" and "${marked[0]}" are both marked default: true`, { key: true });
    }
  } else if (marked.length === 0 && Object.keys(scenarios).length > 1) {
    context.report.error("E_SCENARIO_DEFAULT", ["scenarios"], `none of the ${Object.keys(scenarios).length} scenarios is marked default: true`, { key: true });
  }
}

/** Checks that each scenario's state names only fakes and entities that exist, and its special values. */
function checkState(name: string, state: Record<string, Record<string, unknown>>, fakes: FakeIndex, context: LoadContext): void {
  for (const [fake, entities] of Object.entries(state)) {
    const at: PathSegment[] = ["scenarios", name, "state", fake];
    if (!fakes.ids.includes(fake)) {
      context.report.error("E_UNKNOWN_FAKE", at, `scenario "${name}" sets state for "${fake}", which is not a server or api.${suggestion(fake, fakes.ids)}`, {
        key: true,
      });
      continue;
    }
    const declared = [...fakes.servers, ...fakes.apis].find((f) => f.id === fake);
    const emulated = fakes.apis.some((api) => api.id === fake && api.emulate);
    if (declared && !emulated) {
      const known = declared.entities.map((e) => e.name);
      for (const entity of Object.keys(entities ?? {})) {
        if (!known.includes(entity)) {
          context.report.error("E_UNKNOWN_ENTITY", [...at, entity], `"${fake}" has no entity "${entity}".${suggestion(entity, known)}`, { key: true });
        }
      }
    }
    for (const problem of checkScenarioValues(entities, at)) {
      const position = problem.offset === undefined ? undefined : context.report.source.positionInString([...problem.path, "$expr"], problem.offset);
      context.report.error(problem.code === "E_JSONATA_SYNTAX" ? "E_JSONATA_SYNTAX" : "E_WORLD_VALUE", problem.path, problem.message, { position });
    }
  }
}

/**
 * Checks the scenarios' structure (extends, defaults, state names, special values, stubs) and
 * returns them normalised with the spec worlds are built from.
 */
export function checkScenarios(
  all: ScenariosDocument,
  fakes: FakeIndex,
  context: LoadContext,
  unsound: ReadonlySet<string> = new Set(),
): { scenarios: ScenarioManifest[]; spec: WorldSpec } {
  // Names, extends and defaults are checked over every scenario, so one scenario's typo does not
  // make another's `extends` look wrong; the rest only where the schema check passed.
  checkExtends(all, context);
  checkDefaults(all, context);
  const scenarios = Object.fromEntries(Object.entries(all).filter(([name]) => !unsound.has(name)));
  const normalised: ScenarioManifest[] = [];
  for (const [name, scenario] of Object.entries(scenarios)) {
    checkState(name, scenario.state ?? {}, fakes, context);
    normalised.push({
      name,
      description: scenario.description,
      extends: scenario.extends,
      stubs: checkStubs(name, scenario.stubs ?? [], fakes, context),
      faults: checkFaults(name, scenario.faults ?? [], fakes, context),
      source: context.report.location(["scenarios", name]),
    });
  }
  // A scenario inherits its parent's stubs after its own: the more specific rule is tried first.
  const byName = new Map(normalised.map((s) => [s.name, s]));
  const inherited = <K extends "stubs" | "faults">(key: K, name: string, seen: Set<string>): ScenarioManifest[K] => {
    const scenario = byName.get(name);
    if (!scenario || seen.has(name)) return [] as unknown as ScenarioManifest[K];
    seen.add(name);
    return [...scenario[key], ...(scenario.extends ? inherited(key, scenario.extends, seen) : [])] as ScenarioManifest[K];
  };
  const withInherited = normalised.map((s) => ({ ...s, stubs: inherited("stubs", s.name, new Set()), faults: inherited("faults", s.name, new Set()) }));
  // An emulate built-in's state is its seed: whatever keys the scenarios give it.
  const seedKeys = (id: string) => [...new Set(Object.values(scenarios).flatMap((s) => Object.keys(s.state?.[id] ?? {})))];
  const spec: WorldSpec = {
    fakes: Object.fromEntries(
      [...fakes.servers, ...fakes.apis].map((fake) => [
        fake.id,
        {
          entities: Object.fromEntries([
            ...fake.entities.map((e) => [e.name, e.default === undefined ? {} : { default: e.default }]),
            ...("emulate" in fake && fake.emulate ? seedKeys(fake.id).map((key) => [key, {}]) : []),
          ]),
        },
      ]),
    ),
    scenarios: scenarios as WorldSpec["scenarios"],
  };
  return { scenarios: withInherited, spec };
}
