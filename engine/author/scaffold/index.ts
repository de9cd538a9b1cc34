/** The door of engine/author/scaffold/: what other folders may import from it. */
export { scaffoldRecipe } from "./init-recipe.js";
