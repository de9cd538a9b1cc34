/**
 * Checking a run: what changed in the fakes' state and which write tools the agent called.
 * Everything in this folder imports Node built-ins only (a test enforces it), so a judge or a
 * `node --test` file can use it without the MCP SDK or a test runner.
 */
export { changedEntities } from "../core/record/index.js";
export { applyEntityPatch, entityPatch, entityPatches, sameJson } from "../core/record/index.js";
export type { EntityPatch, EntityPatches, JsonPatchOperation, KeyedPatch } from "../core/record/index.js";
export { fakeHash, valueHash, worldHash } from "../core/record/index.js";
export type { FakeHash, WorldHash } from "../core/record/index.js";
export { loadManifests } from "../judge/verify/index.js";
export { readRecord } from "../judge/verify/index.js";
export { loadState, loadStates } from "../judge/verify/index.js";
export { piToolNames } from "../judge/verify/index.js";
export type { PiToolNames } from "../judge/verify/index.js";
export { writeAttempts } from "../judge/verify/index.js";
export type { WriteAttemptsOptions } from "../judge/verify/index.js";
export type {
  FakeStates,
  OperationWrites,
  RecordedApiCall,
  RecordedCall,
  RecordedToolCall,
  StatesByFake,
  ToolNamer,
  ToolWrites,
  WriteAttempt,
  WriteMap,
  WriteMaps,
} from "../core/record/index.js";
