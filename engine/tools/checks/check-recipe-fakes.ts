/**
 * The two ways to run a Recipe's checks: registered as tests with a runner's `test`
 * (`checkRecipeFakes`), or run one after another for `eval-simulate check` (`runRecipeChecks`).
 */
import { NotChecked } from "./check-failure.js";
import { planChecks, type RecipeChecksOptions, type TestFunction } from "./plan-checks.js";

/** Each check's timeout unless `timeout` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** vitest's `test` carries `extend` and `runIf`; node:test's does not. */
function isVitest(test: TestFunction): boolean {
  const api = test as unknown as { extend?: unknown; runIf?: unknown };
  return typeof api.extend === "function" && typeof api.runIf === "function";
}

/**
 * Registers, with node:test's or vitest's `test`, the checks every Recipe keeps about its fakes
 * (one test per check per fake, one per scenario, one for an unknown scenario) and returns their
 * names. Every test is registered before this returns, so it needs no `await`; the Recipe is
 * loaded by the first test that runs. Register it after the contract tests that record, in the
 * same file, so the recording is complete when the checks read it.
 *
 * @example
 * import { test } from "node:test";
 * import { checkRecipeFakes } from "eval-simulate/checks";
 *
 * checkRecipeFakes({ test, manifest: new URL("../fakes.yaml", import.meta.url), record: RECORD });
 */
export function checkRecipeFakes(options: RecipeChecksOptions): string[] {
  const { test } = options;
  if (typeof test !== "function") throw new Error("[eval-simulate] checkRecipeFakes needs `test`: node:test's or vitest's test function");
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const vitest = isVitest(test);
  const checks = planChecks(options);
  for (const check of checks) {
    // A check that could not check is skipped with its reason (node:test's `t.skip`, vitest's
    // `ctx.skip`), so it never shows as a pass.
    const fn = async (context?: { skip?: (reason?: string) => void }) => {
      const note = await check.run();
      if (note instanceof NotChecked) context?.skip?.(note.reason);
    };
    if (vitest) test(check.name, fn, timeout);
    else test(check.name, { timeout }, fn);
  }
  return checks.map((check) => check.name);
}

/** How one check went, as `eval-simulate check` reports it. */
export interface CheckResult {
  name: string;
  ok: boolean;
  /** False when the check could not check (its reason in `message`): not a pass, not a failure. */
  checked: boolean;
  /** Why it failed and what to fix; for a pass, a note when it checked nothing; else "". */
  message: string;
}

/**
 * Runs the checks `checkRecipeFakes` registers, one after another, without a test runner, and
 * returns each one's result.
 *
 * @example
 * const results = await runRecipeChecks({ manifest: "fakes.yaml", record: "tests/responses.jsonl" });
 * results.filter((r) => !r.ok).map((r) => r.message);
 */
export async function runRecipeChecks(options: Omit<RecipeChecksOptions, "test">): Promise<CheckResult[]> {
  const checks = planChecks({ ...options, test: () => undefined });
  const results: CheckResult[] = [];
  for (const check of checks) {
    try {
      const note = await check.run();
      if (note instanceof NotChecked) results.push({ name: check.name, ok: true, checked: false, message: note.reason });
      else results.push({ name: check.name, ok: true, checked: true, message: note ?? "" });
    } catch (error) {
      results.push({ name: check.name, ok: false, checked: true, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return results;
}
