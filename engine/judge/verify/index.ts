/**
 * engine/judge/verify/: the `eval-simulate/verify` entry's own pieces, on Node built-ins and
 * engine/core/ only, so a harness's verifier needs no other package: `loadManifests` (a manifest
 * dir or a fakes.yaml, `manifests-from-yaml.ts`, `normalize-manifest.ts`), `readRecord`,
 * `loadState`/`loadStates` (state files with their logs applied, `load-states.ts`), `writeAttempts` and the harness tool names it resolves (`tool-names.ts`: `piToolNames`).
 *
 * Other folders import this folder through this file only.
 */
export { loadManifests } from "./load-manifests.js";
export { readRecord } from "./read-record.js";
export { loadState, loadStates } from "./load-states.js";
export { piToolNames, toolNameIndex } from "./tool-names.js";
export type { PiToolNames } from "./tool-names.js";
export { operationKey, writeAttempts } from "./write-attempts.js";
export type { WriteAttemptsOptions } from "./write-attempts.js";
