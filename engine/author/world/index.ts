/**
 * engine/author/world/: worlds. Scenarios with `extends`, merged over the entities' defaults
 * (`merge.ts`); `$date` (`relative-date.ts`), `$id` (`label-id.ts`: `labelId`, a stable UUID) and
 * `$expr` values (`scenario-values.ts`, `bounded-jsonata.ts`: the same bounds as handlers); the
 * clock (`clock.ts`); world modules exporting `world(scenario, clock)` and `SCENARIOS`
 * (`world-source.ts`); `buildWorld`; and invariants checked over a built world (`invariants.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { EXPRESSION_LIMITS, compileBounded, expressionProblem, toPlainJson } from "./bounded-jsonata.js";
export type { Expression, ExpressionProblem } from "./bounded-jsonata.js";
export { IMPLICIT_SCENARIO, buildWorld, defaultScenario, scenarioChain, scenarioNames } from "./build-world.js";
export type { World, WorldSpec } from "./build-world.js";
export { parseClock } from "./clock.js";
export { checkInvariants, compileInvariants } from "./invariants.js";
export type { CompiledInvariant, InvariantFailure, InvariantSyntaxProblem } from "./invariants.js";
export { LABEL_ID_NAMESPACE, labelId, uuidV5 } from "./label-id.js";
export { deepCopy, deepMerge, isPlainObject } from "./merge.js";
export { checkScenarioValues, resolveScenarioValues } from "./scenario-values.js";
export type { ValueProblem } from "./scenario-values.js";
export { worldFromModule, worldFromSpec } from "./world-source.js";
export type { WorldSource } from "./world-source.js";
export { UnknownScenarioError, WorldError, formatPath } from "./world-error.js";
export type { JsonPath } from "./world-error.js";
