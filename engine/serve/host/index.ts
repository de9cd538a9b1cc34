/** The door of engine/serve/host/: what other folders may import from it. */
export { AllowedHostError, parseAllowedHosts } from "./browser-guard.js";
export { RUN_FILES } from "./run-dir.js";
export type { ClosedSession, Session } from "./session-handle.js";
export { SIDECAR_PORT, serveSidecar, sidecarOptions } from "./sidecar.js";
export { startServices } from "./start-services.js";
export type { Services } from "./start-services.js";
export { startingStates } from "./starting-states.js";
export type { OutsideAttempt, ServicesOptions } from "./starting-states.js";
