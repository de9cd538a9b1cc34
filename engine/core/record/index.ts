/**
 * engine/core/record/: what a run's record and states mean, with Node built-ins only (the
 * `eval-simulate/verify` entry stands on it): the entity maps a fake's `manifest.json` writes
 * (`types.ts`), `changedEntities` (the written entities whose final value differs from the initial
 * one), the record's per-entity patches (`entity-patch.ts`: by key for arrays of records, JSON
 * Patch otherwise, and applying them; `sameJson`), which frozen objects were made from which by
 * changing some keys (`derived-values.ts`: what lets `sameJson` compare only those), canonical JSON (`canonical-json.ts`) and `worldHash`
 * (`world-hash.ts`: sha256 of canonical JSON per entity, fake and world, kept per frozen value);
 * entities keyed by id too large to copy on a write, held as a shared base and the keys changed
 * since (`layered-object.ts`: `withChanges`, `isCommitted`);
 * a durable state file's log of commits beside its snapshot, its format and replay
 * (`state-log.ts`) and reading it from disk (`state-log-file.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { canonicalJson, changedEntities } from "./changed-entities.js";
export { derivedKeys, holdsKey, MAX_DERIVED_KEYS, noteDerived } from "./derived-values.js";
export { applyEntityPatch, entityPatch, entityPatches, patchKeys, sameJson } from "./entity-patch.js";
export type { EntityPatch, EntityPatches, JsonPatchOperation, KeyedPatch } from "./entity-patch.js";
export { entityMapOf, requireManifests } from "./types.js";
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
export {
  applyStateCommit,
  commitsForSnapshot,
  parseStateLogLine,
  replayStateLog,
  STATE_LOG_SUFFIX,
  snapshotHash,
  snapshotText,
  stateLogPath,
} from "./state-log.js";
export type { StateLogCommit, StateLogHeader, StateLogMark } from "./state-log.js";
export { readStateLogLines, STATE_LOG_LIMITS, withStateLog } from "./state-log-file.js";
export {
  ABSENT,
  isCommitted,
  isCommittedEntity,
  isLayered,
  type KeyChange,
  LAYERED_MIN_KEYS,
  layerable,
  layerChanges,
  maxChanges,
  orderedKeys,
  ownEntry,
  ownKeysOf,
  plainEntities,
  REMOVED,
  withChanges,
} from "./layered-object.js";
export { fakeHash, valueHash, worldHash } from "./world-hash.js";
export type { FakeHash, WorldHash } from "./world-hash.js";
