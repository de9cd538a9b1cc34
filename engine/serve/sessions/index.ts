/**
 * engine/serve/sessions/: sessions. The registry (`session-registry.ts`: limit, idle TTL, sweep,
 * reset, fork, ids reserved until their calls end), secret addresses `<sid>~<secret>` and
 * `EvalSimulate-Session` addressing (`session-address.ts`), world templates built once per scenario
 * and clock and shared frozen (`world-templates.ts`), the `/sessions` routes and requests reaching
 * outside a session (`session-routes.ts`), and their errors (`session-errors.ts`). The host imports
 * it, never the reverse.
 *
 * Other folders import this folder through this file only.
 */
export { sessionIdOf, splitAddress } from "./session-address.js";
export { SessionLimitError, SessionOptionsError, UnknownSessionError } from "./session-errors.js";
export { SessionRegistry } from "./session-registry.js";
export type { SessionOptions, SessionRecord } from "./session-registry.js";
export { describeSession, sessionRoutes } from "./session-routes.js";
export type { OutsideKind, OutsideListener, Served, SessionHook, WorldAdmin } from "./session-routes.js";
export { WorldTemplates } from "./world-templates.js";
