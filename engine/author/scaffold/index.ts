/**
 * engine/author/scaffold/: `eval-simulate init`. A starting Recipe from a capture: `fakes.yaml`
 * with every tool served as "not implemented", `reads`/`writes` guessed from annotations and verbs
 * with the reason in a comment, one entity and one empty scenario, and `tests/fakes.test.js`.
 *
 * Other folders import this folder through this file only.
 */
export { scaffoldRecipe } from "./init-recipe.js";
