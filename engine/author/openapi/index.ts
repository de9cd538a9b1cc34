/**
 * engine/author/openapi/: an API fake compiled from its OpenAPI document (3.0 or 3.1). The document
 * read and dereferenced (`openapi-document.ts`), its router (`api-router.ts`, `path-template.ts`:
 * literal segments first, dashed names, literal colons, percent-encoding), parameters coerced to
 * their types with defaults filled (`parameters.ts`, `coerce-value.ts`), request bodies
 * (`request-body.ts`), responses per status (`responses.ts`), 3.0 schemas converted
 * (`openapi-schema.ts`), all compiled once by `compileApi`. Pure: serving is `engine/serve/api/`.
 *
 * Other folders import this folder through this file only.
 */
export { compileApi } from "./compile-api.js";
export type { CompiledApi, CompiledOperation } from "./compile-api.js";
export { basePathOf, child, deref, openapiVersion, pointer, realOriginsOf } from "./openapi-document.js";
export type { DocumentNode } from "./openapi-document.js";
export { standaloneSchema } from "./openapi-schema.js";
export { readParameters } from "./parameters.js";
export type { RequestProblem } from "./parameters.js";
export { normalizePath } from "./path-template.js";
export { isJsonMediaType, mediaTypeOf, readBody } from "./request-body.js";
export { checkResponse } from "./responses.js";
