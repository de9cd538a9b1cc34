/**
 * engine/author/handlers/: handlers. `defineHandlers`, `defineApiHandlers` and the handler context
 * types (`typescript-handlers.ts`); a one-item result made the array an answer schema declares (`jsonata-arrays.ts`); the entities an expression names through `$state.`/`$world.` (`jsonata-entity-reads.ts`); `fail` imported, and the refusal it and the context's throw (`tool-failure.ts`); JSONata handlers compiled once with positions of syntax errors
 * and run on every call (`jsonata-*.ts`: a block's let/fail/set/return/isError under one deadline,
 * depth and size limits, yielding every 10 ms so a runaway expression never starves the port). The
 * built-ins that work in one synchronous step are bounded before they start
 * (`jsonata-bounded-*.ts`, `jsonata-value-size.ts`, handing over to jsonata's own
 * `jsonata-originals.ts`); literal regexes that repeat a repeated group are refused
 * (`jsonata-regex-check.ts`); the common shapes (literals, `$a.b` paths, objects of them) read
 * directly, jsonata's result exactly or declined back to jsonata (`jsonata-direct.ts`); and `jsonata-watchdog.ts` is the last resort: a thread that
 * terminates a run blocking the event loop for over a second, failing the run and keeping the
 * process.
 *
 * Other folders import this folder through this file only.
 */
export { compileExpression } from "./jsonata-expression.js";
export { arraysAsDeclared } from "./jsonata-arrays.js";
export { type VariableSteps, variableSteps } from "./jsonata-entity-reads.js";
export type { CompiledExpression } from "./jsonata-expression.js";
export { RunGuard, findStop } from "./jsonata-guard.js";
export type { RunStop } from "./jsonata-guard.js";
export { JsonataRuntimeError, compileJsonataHandler, isTruthy, runJsonataHandler } from "./jsonata-index.js";
export type { CompiledJsonataHandler } from "./jsonata-index.js";
export { toPlainJson } from "./jsonata-plain.js";
export { nestedRepetition } from "./jsonata-regex-check.js";
export { watched } from "./jsonata-watchdog.js";
export { defineApiHandlers, defineHandlers, fail } from "./typescript-handlers.js";
export { isToolFailure, ToolFailure } from "./tool-failure.js";
export type {
  ApiContext,
  ApiRequest,
  ApiResponse,
  ApiTypes,
  ElicitAnswer,
  LogLevel,
  FakeTypes,
  OperationHandler,
  ToolContext,
  ToolHandler,
  ToolResult,
  TypedOperationHandlers,
  TypedToolHandlers,
} from "./typescript-handlers.js";
