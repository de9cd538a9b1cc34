/**
 * Checking a run: what changed in the fakes' state and which write tools the agent called.
 * Everything in this folder imports Node built-ins only (a test enforces it), so a judge or a
 * `node --test` file can use it without the MCP SDK or a test runner.
 */
export { changedEntities } from "./changed-entities.js";
export { applyEntityPatch, entityPatch, entityPatches, sameJson } from "./entity-patch.js";
export type { EntityPatch, EntityPatches, JsonPatchOperation, KeyedPatch } from "./entity-patch.js";
export { fakeHash, valueHash, worldHash } from "./world-hash.js";
export type { FakeHash, WorldHash } from "./world-hash.js";
export { loadManifests } from "./load-manifests.js";
export { readRecord } from "./read-record.js";
export { piToolNames } from "./tool-names.js";
export type { PiToolNames } from "./tool-names.js";
export { writeAttempts } from "./write-attempts.js";
export type { WriteAttemptsOptions } from "./write-attempts.js";
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
} from "./types.js";
