/**
 * Checks (g) and (h): each scenario's world holds every fake, its entities fit their schemas,
 * the manifest's invariants and the Recipe's own `consistent` hold; and a world is refused for a
 * scenario that does not exist.
 */
import { createSchemaCompiler } from "../../author/contract/index.js";
import { fakeKind } from "../../author/fakes/index.js";
import { checkInvariants, compileInvariants } from "../../author/world/index.js";
import { CheckFailure, failOn } from "./check-failure.js";
import type { RecipeContext } from "./recipe-context.js";

/** A scenario name no Recipe uses. */
export const UNKNOWN_SCENARIO = "eval-simulate-no-such-scenario";

const message = (error: unknown) => ((error as Error)?.message ?? String(error)).replace(/^\[eval-simulate\] /, "");

/**
 * Fails, naming each problem, when the scenario's world is not consistent.
 *
 * @example await checkWorld(context, "quiet");
 */
export async function checkWorld(context: RecipeContext, scenario: string): Promise<void> {
  let world: Record<string, Record<string, unknown>>;
  try {
    world = await context.build(scenario);
  } catch (error) {
    throw new CheckFailure(
      `the world of scenario "${scenario}" cannot be built: ${message(error)}\nTo fix: make world("${scenario}", clock) build it, or drop "${scenario}" from the scenarios`,
    );
  }
  const problems: string[] = [];
  const compiler = createSchemaCompiler();
  for (const [id, fake] of Object.entries(context.fakes)) {
    // An emulate built-in keeps its own state; the world only seeds it.
    const entities = fakeKind(fake).entities(fake);
    if (entities === undefined) continue;
    const state = world?.[id];
    if (typeof state !== "object" || state === null || Array.isArray(state)) {
      problems.push(`it holds no state for the fake "${id}"`);
      continue;
    }
    for (const entity of entities) {
      if (!Object.hasOwn(state, entity.name)) continue;
      const compiled = compiler.compile(entity.schema);
      if (compiled.validate(state[entity.name])) continue;
      for (const issue of compiled.issues().slice(0, 5)) problems.push(`${id}.${entity.name}${issue.path} ${issue.message}`);
    }
  }
  const invariants = context.manifest?.invariants ?? [];
  if (invariants.length > 0) {
    const { compiled } = compileInvariants(
      invariants.map((inv) => ({ name: inv.name, assert: inv.expression })),
      context.manifest?.functions,
    );
    for (const failure of await checkInvariants(world, compiled, context.clock)) {
      problems.push(`the invariant "${failure.name}" does not hold${failure.error ? `: ${failure.error}` : ""}`);
    }
  }
  if (problems.length === 0 && context.options.consistent) {
    try {
      await context.options.consistent(structuredClone(world), scenario);
    } catch (error) {
      problems.push(`consistent(world, "${scenario}") threw: ${message(error)}`);
    }
  }
  failOn(
    problems,
    `the world of scenario "${scenario}" is not consistent`,
    `change the scenario's state (or world("${scenario}", clock)) so it holds every fake, each entity fits its schema, and the invariants hold; a record must not point at one that does not exist`,
  );
}

/**
 * Fails when the world builds a world for a scenario it does not know.
 *
 * @example await checkUnknownScenario(context);
 */
export async function checkUnknownScenario(context: RecipeContext): Promise<void> {
  let built: unknown;
  try {
    built = await context.build(UNKNOWN_SCENARIO);
  } catch {
    return;
  }
  throw new CheckFailure(
    `world("${UNKNOWN_SCENARIO}", clock) built a world (${Object.keys(built ?? {}).join(", ") || "empty"}) for a scenario it does not know\n` +
      `To fix: make world(scenario, clock) throw for a name outside its scenarios (${context.scenarios.join(", ")}), naming the known ones, so a mistyped scenario fails instead of serving another world`,
  );
}
