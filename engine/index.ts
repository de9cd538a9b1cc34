/** eval-simulate's public surface: named exports only (a test pins the list). */
export { defineApiHandlers, defineHandlers } from "./handlers/typescript-handlers.js";
export type {
  ApiContext,
  ApiRequest,
  ApiResponse,
  OperationHandler,
  ToolContext,
  ToolHandler,
  ToolResult,
} from "./handlers/typescript-handlers.js";
