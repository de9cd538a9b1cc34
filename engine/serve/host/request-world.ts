import type { RuntimeScope } from "../runtime/index.js";
import { sessionIdOf, splitAddress } from "../sessions/index.js";
import { UnknownSessionError } from "../sessions/index.js";
import type { SessionRegistry } from "../sessions/index.js";
import type { CallsInFlight } from "./calls-in-flight.js";
import type { Evidence } from "./evidence.js";

/** One world the fakes serve: the process's own or a session's. Its runtime scope and its evidence. */
export interface ServedWorld {
  scope: RuntimeScope;
  evidence: Evidence;
  callCount(): number;
  /** A session's calls being served, counted so freeing it waits for them. */
  inFlight?: CallsInFlight;
  settled?(): Promise<void>;
  retire?(): void;
}

/**
 * Runs one call in its world, counted among the world's calls in flight when it keeps a count.
 *
 * @example const result = await servedIn(world, () => callTool(world.scope, fake, name, args, signal));
 */
export function servedIn<T>(world: ServedWorld, work: () => Promise<T>): Promise<T> {
  return world.inFlight ? world.inFlight.run(work) : work();
}

/** The world a request is served in. Throws `UnknownSessionError` for a session that is gone. */
export type WorldOf = (request: Request | undefined) => ServedWorld;

/**
 * Picks each request's world: the session its `/s/<address>/` prefix or `EvalSimulate-Session`
 * header opens, else the process's own. The fakes are mounted once and ask this per call, so a
 * session costs no mount of its own.
 *
 * @example const worldOf = worldResolver(own, registry); worldOf(request).scope.store;
 */
export function worldResolver(own: ServedWorld, registry: () => SessionRegistry<ServedWorld> | undefined, byPath = true): WorldOf {
  return (request) => {
    const address = request && sessionIdOf(request, byPath);
    if (address === undefined) return own;
    const record = registry()?.find(address);
    if (!record) throw new UnknownSessionError(splitAddress(address).sid);
    return record.world;
  };
}
