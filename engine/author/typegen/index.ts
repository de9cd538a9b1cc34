/** The door of engine/author/typegen/: what other folders may import from it. */
export { generateTypes } from "./generate-types.js";
export { defaultTypesFile, typesStale } from "./types-file.js";
