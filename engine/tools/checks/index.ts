/**
 * engine/tools/checks/: the checks every Recipe keeps. `checkRecipeFakes` and `runRecipeChecks`
 * (`check-recipe-fakes.ts`, planned in `plan-checks.ts`), one file per check (served tools, entity
 * map, static tools, bad calls refused, isolation, worlds, observed answers), the observed.json
 * format (`observed-format.md`, `observed-format.ts`) and its answer rules (`observed-answer.ts`),
 * `checkSelectionFixtures` (`check-selection-fixtures.ts`): the selection fixtures' offline
 * checks as node:test or vitest tests; and calls files in every format replay reads
 * (`calls-file.ts`, re-exported by fidelity), which `check --recording` reads too.
 *
 * Other folders import this folder through this file only.
 */
export { readCalls } from "./calls-file.js";
export type { ReplayCall } from "./calls-file.js";
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
