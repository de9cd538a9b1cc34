/**
 * engine/serve/api/: one API fake per request: routed (`route-request.ts`), validated, its handler
 * run in a transaction with stubs and faults (`run-operation.ts`, `handle-request.ts`), its answer
 * checked against the document's response for its status (`api-answer.ts`), and links in it
 * rewritten to the base the client used (`link-rewrite.ts`). Compiling the document is
 * `engine/author/openapi/`.
 *
 * Other folders import this folder through this file only.
 */
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
