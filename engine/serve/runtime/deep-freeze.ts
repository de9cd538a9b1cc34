/**
 * Freezes a JSON value deeply. Committed state is frozen so nothing outside a call's
 * transaction (another handler, a test holding `services.states`) can change it unseen, and so
 * a handler that changes an entity its tool does not declare in `writes` fails loudly.
 * Already-frozen subtrees are skipped: a new value built from old state costs only its new parts.
 *
 * @example const state = deepFreeze({ notes: [] }); Object.isFrozen(state.notes) // true
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
