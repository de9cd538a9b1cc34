/**
 * "No state changed": the entities a run's tools could write whose value at the end differs from
 * the value at the start.
 */
import { entityMapOf, type FakeStates, requireManifests, type StatesByFake, type WriteMaps } from "./types.js";

/**
 * The text of a value as JSON with every object's keys sorted, so two values compare equal
 * exactly when they are the same JSON value whatever their key order. `undefined` (a missing
 * entity) has no text, so it differs from every present value, `null` included.
 */
export function canonicalJson(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner !== "object" || inner === null || Array.isArray(inner)) return inner;
    // No prototype: assigning "__proto__" (an own key JSON.parse keeps) then makes a key, not a prototype.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

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
      const before = Object.hasOwn(initial, entity) ? canonicalJson(initial[entity]) : undefined;
      const after = Object.hasOwn(final, entity) ? canonicalJson(final[entity]) : undefined;
      if (before !== after) changed.push(`${id}.${entity}`);
    }
  }
  return changed.sort();
}
