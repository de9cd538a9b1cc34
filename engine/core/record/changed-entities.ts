/**
 * "No state changed": the entities a run's tools could write whose value at the end differs from
 * the value at the start.
 */
import { sameJson } from "./entity-patch.js";
import { entityMapOf, type FakeStates, requireManifests, type StatesByFake, type WriteMaps } from "./types.js";

export { canonicalJson } from "./canonical-json.js";

/** The entities some tool or operation of a fake writes (declared among its entities or not). */
function writtenEntities(map: Record<string, { writes: string[] }>): string[] {
  return [...new Set(Object.values(map).flatMap((entry) => entry.writes))];
}

function stateOf(states: StatesByFake, id: string, which: "initial" | "final"): Record<string, unknown> {
  const state = states?.[id];
  if (typeof state !== "object" || state === null || Array.isArray(state)) {
    // A fake missing from the states would compare undefined with undefined and pass unseen.
    throw new Error(`[eval-simulate] the ${which} states hold no state for "${id}"; they hold ${Object.keys(states ?? {}).join(", ") || "nothing"}`);
  }
  return state;
}

/**
 * `['<id>.<entity>', …]`, sorted: every entity a tool or operation of these fakes writes whose
 * final value differs from its initial one as a JSON value (`false` and `0` differ, key order
 * does not matter, a missing entity differs from a present one).
 *
 * Only the two ends of the run are compared: a change undone within the run (a field set and set
 * back) is not seen. A check that forbids even a passing change needs a fake that records each
 * transition in an entity of its own (as the mail example's `sendAttempts` records every send).
 * Throws on an empty set of manifests, and when the states lack one of the fakes.
 *
 * @example
 * changedEntities({ initial, final }, loadManifests("/logs/manifests")); // ["mail.emails", "mail.sendAttempts"]
 */
export function changedEntities(states: FakeStates<object>, manifests: WriteMaps): string[] {
  requireManifests(manifests, "changedEntities");
  if (typeof states !== "object" || states === null) {
    throw new Error("[eval-simulate] changedEntities needs the states as { initial, final }, each keyed by fake id");
  }
  const changed: string[] = [];
  for (const [id, manifest] of Object.entries(manifests)) {
    const initial = stateOf(states.initial as StatesByFake, id, "initial");
    const final = stateOf(states.final as StatesByFake, id, "final");
    for (const entity of writtenEntities(entityMapOf(manifest))) {
      // Compared as JSON values, shortcut on shared parts: a run's final world shares every
      // record it did not change with its initial one, so this costs the changed records.
      const had = Object.hasOwn(initial, entity) && initial[entity] !== undefined;
      const has = Object.hasOwn(final, entity) && final[entity] !== undefined;
      if (had !== has || (had && !sameJson(initial[entity], final[entity]))) changed.push(`${id}.${entity}`);
    }
  }
  return changed.sort();
}
