/** The API stage (SPEC §8): one API fake compiled from its OpenAPI document and served per request. Named exports only. */
export { compileApi } from "./compile-api.js";
export type { CompiledApi, CompiledOperation } from "./compile-api.js";
export { handleApiRequest } from "./handle-request.js";
export type { ApiBase, ApiCallOutcome, ApiScope } from "./handle-request.js";
export { ERROR_STATUS } from "./api-answer.js";
export type { ApiErrorCode, SentResponse } from "./api-answer.js";
export { basePathOf, realOriginsOf } from "./openapi-document.js";
export { standaloneSchema } from "./openapi-schema.js";
export type { RequestProblem } from "./parameters.js";
export type { ServedApiRequest } from "./run-operation.js";
