/** The door of engine/core/record/: what other folders may import from it. */
export { changedEntities } from "./changed-entities.js";
export { applyEntityPatch, entityPatch, entityPatches, sameJson } from "./entity-patch.js";
export type { EntityPatch, EntityPatches, JsonPatchOperation, KeyedPatch } from "./entity-patch.js";
export { entityMapOf, requireManifests } from "./types.js";
export type { FakeStates, OperationWrites, RecordedApiCall, RecordedCall, RecordedToolCall, StatesByFake, ToolNamer, ToolWrites, WriteAttempt, WriteMap, WriteMaps } from "./types.js";
export { fakeHash, valueHash, worldHash } from "./world-hash.js";
export type { FakeHash, WorldHash } from "./world-hash.js";
