/**
 * engine/author/model/: the normalised `Manifest` the later stages consume (`types.ts`): servers,
 * APIs, tools and operations with their entity maps, answers and handlers, scenarios, stubs,
 * faults, invariants and resources, each remembering where it was declared. Types only.
 *
 * Other folders import this folder through this file only.
 */
export type {
  ApiManifest,
  CapturedTool,
  EntityManifest,
  FaultManifest,
  HandlerManifest,
  InvariantManifest,
  JsonSchema,
  Manifest,
  OperationManifest,
  ResourceManifest,
  PromptManifest,
  CompletionManifest,
  ScenarioManifest,
  ServerManifest,
  SourceLocation,
  StubManifest,
  StubOutcome,
  ToolManifest,
} from "./types.js";
