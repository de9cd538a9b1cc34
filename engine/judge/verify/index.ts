/** The door of engine/judge/verify/: what other folders may import from it. */
export { loadManifests } from "./load-manifests.js";
export { readRecord } from "./read-record.js";
export { piToolNames, toolNameIndex } from "./tool-names.js";
export type { PiToolNames } from "./tool-names.js";
export { operationKey, writeAttempts } from "./write-attempts.js";
export type { WriteAttemptsOptions } from "./write-attempts.js";
