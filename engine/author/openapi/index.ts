/** The door of engine/author/openapi/: what other folders may import from it. */
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
