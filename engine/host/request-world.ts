import type { RuntimeScope } from "../runtime/call-tool.js";
import { sessionIdOf } from "../sessions/session-address.js";
import { UnknownSessionError } from "../sessions/session-errors.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import type { Evidence } from "./evidence.js";

/** One world the fakes serve: the process's own or a session's. Its runtime scope and its evidence. */
export interface ServedWorld {
  scope: RuntimeScope;
  evidence: Evidence;
  callCount(): number;
  retire?(): void;
}

/** The world a request is served in. Throws `UnknownSessionError` for a session that is gone. */
export type WorldOf = (request: Request | undefined) => ServedWorld;

/**
 * Picks each request's world: the session its `/s/<sid>/` prefix or `EvalSimulate-Session`
 * header names, else the process's own. The fakes are mounted once and ask this per call, so a
 * session costs no mount of its own.
 *
 * @example const worldOf = worldResolver(own, registry); worldOf(request).scope.store;
 */
export function worldResolver(own: ServedWorld, registry: () => SessionRegistry<ServedWorld> | undefined, byPath = true): WorldOf {
  return (request) => {
    const sid = request && sessionIdOf(request, byPath);
    if (sid === undefined) return own;
    const record = registry()?.get(sid);
    if (!record) throw new UnknownSessionError(sid);
    return record.world;
  };
}
