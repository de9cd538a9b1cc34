import { isCommitted, isCommittedEntity } from "../../core/record/index.js";

/**
 * Freezes a JSON value deeply. Committed state is frozen so nothing outside a call's
 * transaction (another handler, a test holding `services.states`) can change it unseen, and so
 * a handler that changes an entity its tool does not declare in `writes` fails loudly.
 * Already-frozen subtrees are skipped: a new value built from old state costs only its new parts.
 *
 * @example const state = deepFreeze({ notes: [] }); Object.isFrozen(state.notes) // true
 */
export function deepFreeze<T>(value: T): T {
  // The value handed in is an entity's (asked once and kept), its parts are records (asked each time).
  if (value === null || typeof value !== "object" || isCommittedEntity(value)) return value;
  return freezeParts(value);
}

function freezeParts<T extends object>(value: T): T {
  Object.freeze(value);
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== null && typeof inner === "object" && !isCommitted(inner)) freezeParts(inner);
  }
  return value;
}
