/**
 * The checks a Recipe keeps, named and ready to run: one of each per fake, one per scenario,
 * and the unknown-scenario check. Names are known at once; the Recipe is loaded by the first
 * check that runs, so a test file registers every test while it loads.
 */
import { checkBadCalls } from "./check-bad-calls.js";
import type { NotChecked } from "./check-failure.js";
import { checkEntityMap, checkStaticTools } from "./check-entity-map.js";
import { checkIsolation } from "./check-isolation.js";
import { checkObserved } from "./check-observed.js";
import { checkServedTools } from "./check-served-tools.js";
import { checkUnknownScenario, checkWorld } from "./check-worlds.js";
import { loadRecipeContext, type RecipeContext } from "./recipe-context.js";
import { recipeNames } from "./recipe-names.js";
import type { RecipeChecksOptions } from "./recipe-options.js";

export type { RecipeChecksOptions, TestFunction } from "./recipe-options.js";

/** One check: its test name and how to run it (throws when it fails; may resolve to a note). */
export interface PlannedCheck {
  name: string;
  run(): Promise<string | NotChecked | undefined>;
}

/** The names of the per-fake checks, in the order they run. */
export const FAKE_CHECKS = {
  served: (id: string) => `${id} serves the Recipe's allowed tools from its contract, in captured order`,
  entities: (id: string) => `${id} maps every allowed tool to its entities`,
  statics: (id: string) => `${id} has no static tool over an entity a tool writes or a world fills`,
  refuses: (id: string) => `${id} refuses a call outside a tool's input schema and changes no state`,
  isolated: (id: string) => `${id} shares no state between two started instances`,
  observed: (id: string) => `${id} answers every observed tool as the real server did`,
} as const;

/** The name of a scenario's world check. */
export const worldCheckName = (scenario: string) => `the ${scenario} world is consistent`;

/** The name of the unknown-scenario check. */
export const UNKNOWN_SCENARIO_CHECK = "an unknown scenario is refused";

/**
 * Every check of a Recipe, named; throws at once only when the names cannot be known (no fakes,
 * an unreadable manifest, a world function without `scenarios`).
 *
 * @example for (const check of planChecks({ test, manifest: "fakes.yaml" })) await check.run();
 */
export function planChecks(options: RecipeChecksOptions): PlannedCheck[] {
  const names = recipeNames(options);
  let loading: Promise<RecipeContext> | undefined;
  const context = () => (loading ??= loadRecipeContext(options, names));
  const planned = (
    name: string,
    run: (context: RecipeContext) => Promise<string | NotChecked | undefined | void> | string | undefined | void,
  ): PlannedCheck => ({
    name,
    run: async () => (await run(await context())) ?? undefined,
  });
  const checks: PlannedCheck[] = [];
  for (const id of names.ids) {
    checks.push(
      planned(FAKE_CHECKS.served(id), (c) => checkServedTools(c, id)),
      planned(FAKE_CHECKS.entities(id), (c) => checkEntityMap(c, id)),
      planned(FAKE_CHECKS.statics(id), (c) => checkStaticTools(c, id)),
      planned(FAKE_CHECKS.refuses(id), (c) => checkBadCalls(c, id)),
      planned(FAKE_CHECKS.isolated(id), (c) => checkIsolation(c, id)),
      planned(FAKE_CHECKS.observed(id), (c) => checkObserved(c, id)),
    );
  }
  for (const scenario of names.scenarios) checks.push(planned(worldCheckName(scenario), (c) => checkWorld(c, scenario)));
  checks.push(planned(UNKNOWN_SCENARIO_CHECK, (c) => checkUnknownScenario(c)));
  return checks;
}
