/**
 * `eval-simulate/checks`: the tests a Recipe keeps about its fakes, registered with node:test's
 * or vitest's `test`, and the same checks run without a runner (`eval-simulate check`).
 */
export { checkRecipeFakes, DEFAULT_TIMEOUT_MS, runRecipeChecks } from "./check-recipe-fakes.js";
export type { CheckResult } from "./check-recipe-fakes.js";
export { CheckFailure } from "./check-failure.js";
export { checkSelectionFixtures } from "./check-selection-fixtures.js";
export type { SelectionChecksOptions } from "./check-selection-fixtures.js";
export { observedAnswerProblems } from "./observed-answer.js";
export type { AnswerParts } from "./observed-answer.js";
export {
  loadObserved,
  ObservedFileSchema,
  parseObserved,
  REQUIRED_MIN_SAMPLES,
} from "./observed-format.js";
export type { ObservedAnswer, ObservedFile, ObservedTool } from "./observed-format.js";
export type { RecipeChecksOptions, TestFunction } from "./plan-checks.js";
