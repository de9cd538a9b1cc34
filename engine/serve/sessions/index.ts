/** The door of engine/serve/sessions/: what other folders may import from it. */
export { sessionIdOf, splitAddress } from "./session-address.js";
export { SessionLimitError, SessionOptionsError, UnknownSessionError } from "./session-errors.js";
export { SessionRegistry } from "./session-registry.js";
export type { SessionOptions, SessionRecord } from "./session-registry.js";
export { describeSession, sessionRoutes } from "./session-routes.js";
export type { OutsideKind, OutsideListener, Served, SessionHook, WorldAdmin } from "./session-routes.js";
export { WorldTemplates } from "./world-templates.js";
