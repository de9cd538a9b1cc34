/** The API stage (SPEC §8): one API fake compiled from its OpenAPI document and served per request. Named exports only. */
export { compileApi } from "../../author/openapi/index.js";
export type { CompiledApi, CompiledOperation } from "../../author/openapi/index.js";
export { handleApiRequest } from "./handle-request.js";
export type { ApiBase, ApiCallOutcome, ApiScope } from "./handle-request.js";
export { ERROR_STATUS } from "./api-answer.js";
export type { ApiErrorCode, SentResponse } from "./api-answer.js";
export { basePathOf, realOriginsOf } from "../../author/openapi/index.js";
export { standaloneSchema } from "../../author/openapi/index.js";
export type { RequestProblem } from "../../author/openapi/index.js";
export type { ServedApiRequest } from "./run-operation.js";
export { FRAMING_HEADERS } from "./api-answer.js";
export { FAULT_HEADER } from "./handle-request.js";
