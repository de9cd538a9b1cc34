/** eval-simulate's public surface: named exports only (test/public-surface.test.ts pins the list). */
export { defineApiHandlers, defineHandlers, fail } from "./author/handlers/index.js";
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
} from "./author/handlers/index.js";
export { FakeSelectionError, loadFakes } from "./author/fakes/index.js";
export type { FakeSelectionProblem } from "./author/fakes/index.js";
export type { LoadedFakes } from "./author/fakes/index.js";
export { startServices } from "./serve/host/index.js";
export type { Services } from "./serve/host/index.js";
export type { ServicesOptions } from "./serve/host/index.js";
export type { ClosedSession, Session } from "./serve/host/index.js";
export type { SessionOptions } from "./serve/sessions/index.js";
export { SessionLimitError, UnknownSessionError } from "./serve/sessions/index.js";
export type { HttpLimits } from "./serve/http/index.js";
export { serveSidecar, sidecarOptions, SIDECAR_PORT } from "./serve/host/index.js";
export type { Fake, Fakes, McpFake, WorldOption } from "./author/fakes/index.js";
export { checkManifest, loadManifest } from "./author/manifest/index.js";
export type { LoadOptions, LoadResult } from "./author/manifest/index.js";
export { ManifestError } from "./author/source/index.js";
export type { Diagnostic, DiagnosticCode } from "./author/source/index.js";
export type { Manifest, ServerManifest, ToolManifest } from "./author/model/index.js";
export { encodeAnswer, notImplemented, readAnswer, readResult, structured, text } from "./author/contract/index.js";
export type { AnswerSpec, AnswerReading } from "./author/contract/index.js";
export { labelId, parseClock, UnknownScenarioError } from "./author/world/index.js";
export type { World, WorldSource } from "./author/world/index.js";
export { contractOf, mcpFakeFromModule, toolsOf } from "./author/fakes/index.js";
export type { Contract, McpFakeModule, ToolConfig, ToolRegistrar } from "./author/fakes/index.js";
export type { FakesInput } from "./author/fakes/index.js";
export { startTracing, stopTracing } from "./serve/telemetry/index.js";
export type { TracingStart } from "./serve/telemetry/index.js";
