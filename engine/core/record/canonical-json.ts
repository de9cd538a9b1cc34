/** Canonical JSON: the one text of a JSON value, whatever order its keys were written in. */

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
