/**
 * engine/author/scaffold/: `eval-simulate init`. A starting Recipe from a capture: `fakes.yaml`
 * with every tool served as "not implemented", `reads`/`writes` guessed from annotations and verbs
 * with the reason in a comment, one entity and one empty scenario, and `tests/fakes.test.js`
 * (`init-recipe.ts`); a starter `evals.yaml` whose one scripted case passes `--dry`
 * (`starter-evals.ts`); the Recipe's package.json, written or completed, and the modelines' path
 * to the installed package (`recipe-package.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { guessWrites, scaffoldRecipe } from "./init-recipe.js";
export { modelinePackagePath, type RecipePackage, type RecipeVersions, recipePackage } from "./recipe-package.js";
