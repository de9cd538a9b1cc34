/** A stand-in for a runner's `test`: collects what checkRecipeFakes registers, then runs it. */

export interface Collected {
  name: string;
  options?: unknown;
  timeout?: unknown;
  fn: () => unknown;
}

export interface Outcome {
  name: string;
  ok: boolean;
  message: string;
}

/** A node:test-shaped `test(name, options, fn)` (also `test(name, fn)`) and what it collected. */
export function collector() {
  const tests: Collected[] = [];
  const test = (name: string, optionsOrFn?: unknown, fn?: unknown) => {
    if (typeof optionsOrFn === "function") tests.push({ name, fn: optionsOrFn as () => unknown });
    else tests.push({ name, options: optionsOrFn, fn: fn as () => unknown });
  };
  return { test, tests };
}

/** A vitest-shaped `test(name, fn, timeout)`: it has `extend` and `runIf`, as vitest's has. */
export function vitestCollector() {
  const tests: Collected[] = [];
  const test = Object.assign((name: string, fn: () => unknown, timeout?: unknown) => void tests.push({ name, fn, timeout }), {
    extend: () => test,
    runIf: () => test,
  });
  return { test, tests };
}

/** Runs collected tests one after another, as a runner runs one file's tests. */
export async function runCollected(tests: Collected[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const { name, fn } of tests) {
    try {
      await fn();
      outcomes.push({ name, ok: true, message: "" });
    } catch (error) {
      outcomes.push({ name, ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return outcomes;
}

/** The names of the failed outcomes. */
export const failedNames = (outcomes: Outcome[]) => outcomes.filter((o) => !o.ok).map((o) => o.name);
