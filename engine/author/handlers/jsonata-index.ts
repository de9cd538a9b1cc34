/** The JSONata handler runtime (§4.1): compile once when the manifest loads, run on every call. Named exports only. */
export { compileExpression, referencedBindings, DEFAULT_EXPRESSION_LIMITS } from "./jsonata-expression.js";
export type { CompiledExpression, ExpressionLimits, JsonataSyntaxProblem } from "./jsonata-expression.js";
export { compileJsonataHandler, BUILT_IN_BINDINGS } from "./jsonata-handler.js";
export type { CompiledJsonataHandler, HandlerCompileError, JsonataHandlerSpec } from "./jsonata-handler.js";
export { runJsonataHandler } from "./jsonata-run.js";
export type { JsonataHandlerInput, JsonataHandlerResult } from "./jsonata-run.js";
export { JsonataRuntimeError } from "./jsonata-errors.js";
export type { HandlerPath, RuntimeErrorCode } from "./jsonata-errors.js";
export { DEFAULT_RUN_LIMITS, RunGuard } from "./jsonata-guard.js";
export type { RunLimits } from "./jsonata-guard.js";
export { toPlainJson, isTruthy } from "./jsonata-plain.js";
export { errorSpan } from "./jsonata-position.js";
export type { SourceSpan } from "./jsonata-position.js";
