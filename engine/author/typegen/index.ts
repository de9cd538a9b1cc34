/**
 * engine/author/typegen/: `eval-simulate types`. The manifest as one JSON Schema of named types
 * (`type-model.ts`: each fake's arguments, state, answers, API requests and responses, the world),
 * compiled to TypeScript by json-schema-to-typescript (`generate-types.ts`), and the header hash
 * `validate` compares to warn `W_TYPES_STALE` (`types-file.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { generateTypes } from "./generate-types.js";
export { defaultTypesFile, typesStale } from "./types-file.js";
