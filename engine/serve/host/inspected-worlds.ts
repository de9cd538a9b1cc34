import type { InspectedWorld } from "../inspect/index.js";
import type { SessionRecord } from "../sessions/index.js";
import type { Fakes } from "../../author/fakes/index.js";
import type { ServedWorld } from "./request-world.js";

/** One served world as the inspector reads it: its scope's state and its own evidence. */
function inspected(id: string, scenario: string, fakes: Fakes, world: ServedWorld): InspectedWorld {
  const { scope, evidence } = world;
  return {
    id,
    scenario,
    clock: scope.now,
    fakes: Object.entries(fakes).map(([fake, f]) => ({ id: fake, kind: f.kind })),
    state: (fake) => scope.store.states[fake],
    initialState: (fake) => scope.store.initial[fake],
    calls: (filter) => evidence.calls(filter),
    stubs: () => scope.stubs?.usage() ?? [],
  };
}

/**
 * The worlds the inspector lists: the process's own first, then each live session's.
 *
 * @example inspectedWorlds(fakes, own, "quiet", () => registry.list());
 */
export function inspectedWorlds(fakes: Fakes, own: ServedWorld, scenario: string, sessions: () => Array<SessionRecord<ServedWorld>>): InspectedWorld[] {
  return [inspected("default", scenario, fakes, own), ...sessions().map((record) => inspected(record.id, record.scenario, fakes, record.world))];
}
