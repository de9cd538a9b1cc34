/** eval-simulate's public surface: named exports only (test/public-surface.test.ts pins the list). */
export { defineApiHandlers, defineHandlers } from "./handlers/typescript-handlers.js";
export type {
  ApiContext,
  ApiRequest,
  ApiResponse,
  ApiTypes,
  FakeTypes,
  OperationHandler,
  ToolContext,
  ToolHandler,
  ToolResult,
  TypedOperationHandlers,
  TypedToolHandlers,
} from "./handlers/typescript-handlers.js";
export { loadFakes } from "./host/load-fakes.js";
export type { LoadedFakes } from "./host/load-fakes.js";
export { startServices } from "./host/start-services.js";
export type { Services } from "./host/start-services.js";
export type { ServicesOptions } from "./host/starting-states.js";
export type { ClosedSession, Session } from "./host/session-handle.js";
export type { SessionOptions } from "./sessions/session-registry.js";
export { SessionLimitError, UnknownSessionError } from "./sessions/session-errors.js";
export type { HttpLimits } from "./host/http-limits.js";
export { serveSidecar, sidecarOptions, SIDECAR_PORT } from "./host/sidecar.js";
export type { Fake, Fakes, McpFake, WorldOption } from "./host/fakes.js";
export { checkManifest, loadManifest } from "./manifest/load-manifest.js";
export type { LoadOptions, LoadResult } from "./manifest/load-manifest.js";
export { ManifestError } from "./manifest/diagnostic.js";
export type { Diagnostic, DiagnosticCode } from "./manifest/diagnostic.js";
export type { Manifest, ServerManifest, ToolManifest } from "./manifest/types.js";
export { encodeAnswer, notImplemented, readAnswer, readResult, structured, text } from "./contract/index.js";
export type { AnswerSpec, AnswerReading } from "./contract/index.js";
export { labelId, parseClock, UnknownScenarioError } from "./world/index.js";
export type { World, WorldSource } from "./world/index.js";
export { contractOf, mcpFakeFromModule, toolsOf } from "./typescript-fakes/index.js";
export type { Contract, McpFakeModule, ToolConfig, ToolRegistrar } from "./typescript-fakes/index.js";
export type { FakesInput } from "./host/fakes.js";
