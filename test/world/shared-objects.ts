/**
 * Every object reachable from both values: the identity check behind "two worlds share no
 * object" (deep equality alone cannot see sharing).
 */
export function sharedObjects(a: unknown, b: unknown): object[] {
  const fromA = new Set<object>();
  collect(a, fromA);
  const shared = new Set<object>();
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== "object") return;
    if (fromA.has(value)) shared.add(value);
    for (const item of Object.values(value)) walk(item);
  };
  walk(b);
  return [...shared];
}

function collect(value: unknown, into: Set<object>): void {
  if (value === null || typeof value !== "object" || into.has(value)) return;
  into.add(value);
  for (const item of Object.values(value)) collect(item, into);
}
