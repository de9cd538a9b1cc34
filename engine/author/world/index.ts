/** Worlds, scenarios and the clock: named exports only. */
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
