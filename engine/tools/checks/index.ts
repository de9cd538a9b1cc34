/** The door of engine/tools/checks/: what other folders may import from it. */
export { CheckFailure } from "./check-failure.js";
export { DEFAULT_TIMEOUT_MS, checkRecipeFakes, runRecipeChecks } from "./check-recipe-fakes.js";
export type { CheckResult } from "./check-recipe-fakes.js";
export { checkSelectionFixtures } from "./check-selection-fixtures.js";
export type { SelectionChecksOptions } from "./check-selection-fixtures.js";
export { observedAnswerProblems } from "./observed-answer.js";
export type { AnswerParts } from "./observed-answer.js";
export { ObservedFileSchema, REQUIRED_MIN_SAMPLES, loadObserved, parseObserved } from "./observed-format.js";
export type { ObservedAnswer, ObservedFile, ObservedTool } from "./observed-format.js";
export type { RecipeChecksOptions, TestFunction } from "./plan-checks.js";
