/**
 * engine/serve/host/: one port. `startServices` (`start-services.ts`, its options and starting
 * states in `starting-states.ts`, resumed states checked in `resumed-states.ts`); each fake mounted
 * once and stopped together (`mount-fakes.ts`; how each kind is mounted, `fake-mounts.ts`:
 * `mcp-mount.ts`, `api-mount.ts`, `resource-mount.ts`, `emulate-mount.ts`: API fakes as emulate
 * custom emulators, emulate's built-ins proxied); the routes (`routes.ts`: `/<id>/mcp`,
 * `/<id>/admin/*`, `/health`, the admin token) behind the Host and Origin checks (`browser-guard.ts`, `--allow-host`); the world a request is served in
 * (`request-world.ts`), sessions wired in (`session-host.ts`, `session-handle.ts`: the library's
 * `Session`, `calls-in-flight.ts`); evidence, journal and record (`evidence.ts`,
 * `record-changes.ts`: a committed call's `commit` and `changes`, made once per commit); state
 * files kept as a snapshot and an append-only log of commits (`durable-state.ts`, its file
 * operations in `log-files.ts`, the snapshot serialised in pieces by `pretty-json-chunks.ts`),
 * other files written whole and the manifest
 * dir (`state-files.ts`, `manifest-dir.ts`), the run folder's names (`run-dir.ts`); the worlds the
 * inspector lists (`inspected-worlds.ts`); and the sidecar (`sidecar.ts`, `parent-watch.ts`: stop
 * when the npm parent is gone). It imports nothing of the judge or eval layers: the inspector's
 * results panel is handed in by the CLI.
 *
 * Other folders import this folder through this file only.
 */
export { AllowedHostError, browserGuard, parseAllowedHosts } from "./browser-guard.js";
export { RUN_FILES } from "./run-dir.js";
export type { ClosedSession, Session } from "./session-handle.js";
export { SIDECAR_PORT, serveSidecar, sidecarOptions } from "./sidecar.js";
export { startServices } from "./start-services.js";
export type { Services } from "./start-services.js";
export { startingStates } from "./starting-states.js";
export type { OutsideAttempt, ServicesOptions } from "./starting-states.js";
