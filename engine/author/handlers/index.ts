/** The door of engine/author/handlers/: what other folders may import from it. */
export { compileExpression } from "./jsonata-expression.js";
export type { CompiledExpression } from "./jsonata-expression.js";
export { RunGuard, findStop } from "./jsonata-guard.js";
export type { RunStop } from "./jsonata-guard.js";
export { JsonataRuntimeError, compileJsonataHandler, isTruthy, runJsonataHandler } from "./jsonata-index.js";
export type { CompiledJsonataHandler } from "./jsonata-index.js";
export { toPlainJson } from "./jsonata-plain.js";
export { nestedRepetition } from "./jsonata-regex-check.js";
export { watched } from "./jsonata-watchdog.js";
export { defineApiHandlers, defineHandlers } from "./typescript-handlers.js";
export type { ApiContext, ApiRequest, ApiResponse, ApiTypes, FakeTypes, OperationHandler, ToolContext, ToolHandler, ToolResult, TypedOperationHandlers, TypedToolHandlers } from "./typescript-handlers.js";
