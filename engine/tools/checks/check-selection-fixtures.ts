/**
 * The selection fixtures' offline check as a Recipe's tests: registered with node:test's or
 * vitest's `test`, so renaming or dropping a captured tool, or a fixture naming a tool that is
 * not served, fails the Recipe's own test run at once, free, without a model.
 */
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { type EvalsCheck, checkEvals } from "../../judge/evals/index.js";
import type { Diagnostic } from "../../author/source/index.js";
import { failOn } from "./check-failure.js";
import { DEFAULT_TIMEOUT_MS } from "./check-recipe-fakes.js";
import type { TestFunction } from "./plan-checks.js";

/** What `checkSelectionFixtures` checks, and with which runner. */
export interface SelectionChecksOptions {
  /** The runner's `test` (node:test's or vitest's). */
  test: TestFunction;
  /** The evals file (a path or file: URL) holding `selection`. */
  evals: string | URL;
  /** The clock the fakes' worlds are built at for their own checks (ISO 8601; now by default). */
  clock?: string;
  timeout?: number;
}

const isSelection = (d: Diagnostic) => /^selection(Options)?(\[|\.|$)/.test(d.path);
const shown = (d: Diagnostic) => `${d.file}:${d.line}:${d.column} ${d.message}`;

/**
 * Registers the selection fixtures' checks as tests and returns their names: the evals file and
 * its fakes load; ids and queries are unique; every expected tool is in the served catalog
 * (with a did-you-mean); the counts and areas meet `selectionOptions`.
 *
 * @example
 * import { test } from "node:test";
 * import { checkSelectionFixtures } from "eval-simulate/checks";
 *
 * checkSelectionFixtures({ test, evals: new URL("../evals.yaml", import.meta.url) });
 */
export function checkSelectionFixtures(options: SelectionChecksOptions): string[] {
  const { test } = options;
  if (typeof test !== "function") throw new Error("[eval-simulate] checkSelectionFixtures needs `test`: node:test's or vitest's test function");
  const file = options.evals instanceof URL ? fileURLToPath(options.evals) : options.evals;
  const name = basename(file);
  let checked: Promise<EvalsCheck> | undefined;
  const errors = async (keep: (d: Diagnostic) => boolean) => {
    checked ??= checkEvals(file, { clock: options.clock });
    return (await checked).diagnostics.filter((d) => d.severity === "error" && keep(d)).map(shown);
  };
  const checks: Array<[string, () => Promise<void>]> = [
    [
      `${name} and its fakes load and are valid`,
      async () =>
        failOn(await errors((d) => !isSelection(d)), `${name} has errors outside its selection fixtures`, "Run `eval-simulate validate` on it and fix each."),
    ],
    [
      `selection fixtures in ${name} have unique ids and queries`,
      async () =>
        failOn(
          await errors((d) => isSelection(d) && d.code === "E_DUPLICATE_ID"),
          "selection fixtures repeat an id or a query",
          "Give every fixture its own id and query.",
        ),
    ],
    [
      `selection fixtures in ${name} expect only tools the fakes serve`,
      async () =>
        failOn(
          await errors((d) => isSelection(d) && d.code === "E_UNKNOWN_TOOL"),
          "selection fixtures expect tools the served catalog does not hold",
          "A renamed or dropped tool in a capture shows here: rename it in the fixtures too, or serve it again.",
        ),
    ],
    [
      `selection fixtures in ${name} meet their counts and cover every area`,
      async () =>
        failOn(
          await errors((d) => isSelection(d) && d.code === "E_SELECTION"),
          "selection fixtures do not meet selectionOptions",
          "Add fixtures (one per area at least), or change the limits.",
        ),
    ],
  ];
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const vitest = typeof (test as { extend?: unknown }).extend === "function" && typeof (test as { runIf?: unknown }).runIf === "function";
  for (const [title, fn] of checks) {
    if (vitest) test(title, fn, timeout);
    else test(title, { timeout }, fn);
  }
  return checks.map(([title]) => title);
}
