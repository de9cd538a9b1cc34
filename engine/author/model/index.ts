/** The door of engine/author/model/: what other folders may import from it. */
export type { ApiManifest, CapturedTool, EntityManifest, FaultManifest, HandlerManifest, InvariantManifest, JsonSchema, Manifest, OperationManifest, ResourceManifest, ScenarioManifest, ServerManifest, SourceLocation, StubManifest, StubOutcome, ToolManifest } from "./types.js";
