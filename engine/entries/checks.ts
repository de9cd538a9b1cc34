/**
 * `eval-simulate/checks`: the tests a Recipe keeps about its fakes, registered with node:test's
 * or vitest's `test`, and the same checks run without a runner (`eval-simulate check`).
 */
export { checkRecipeFakes, DEFAULT_TIMEOUT_MS, runRecipeChecks } from "../tools/checks/index.js";
export type { CheckResult } from "../tools/checks/index.js";
export { CheckFailure } from "../tools/checks/index.js";
export { checkSelectionFixtures } from "../tools/checks/index.js";
export type { SelectionChecksOptions } from "../tools/checks/index.js";
export { observedAnswerProblems } from "../tools/checks/index.js";
export type { AnswerParts } from "../tools/checks/index.js";
export {
  loadObserved,
  ObservedFileSchema,
  parseObserved,
  REQUIRED_MIN_SAMPLES,
} from "../tools/checks/index.js";
export type { ObservedAnswer, ObservedFile, ObservedTool } from "../tools/checks/index.js";
export type { RecipeChecksOptions, TestFunction } from "../tools/checks/index.js";
