/** What `checkRecipeFakes` and `runRecipeChecks` take: the Recipe, its world and the test runner. */
// biome-ignore-all lint/suspicious/noExplicitAny: the test runner's own `test` function (node:test, vitest) is taken as it is, whatever its option types.
import type { FakesInput, WorldOption } from "../../author/fakes/index.js";
import type { World } from "../../author/world/index.js";

/**
 * A test runner's `test`: node:test's `test(name, options, fn)` or vitest's `test(name, fn,
 * timeout)`; both also take `test(name, fn)`.
 */
export type TestFunction = (name: string, optionsOrFn?: any, fnOrTimeout?: any) => unknown;

/** What `checkRecipeFakes` checks, and with which runner. */
export interface RecipeChecksOptions {
  /** The runner's `test` (node:test's or vitest's). */
  test: TestFunction;
  /**
   * The Recipe's root package.json (a path or file: URL): its `pi.mcp.servers[].tools` is the
   * allow-list. Without it, each fake's own tools (fakes.yaml's `tools`) are.
   */
  recipe?: string | URL;
  /** A fakes.yaml: its fakes, world and scenarios, unless given below. */
  manifest?: string | URL;
  /** The fakes: `loadFakes(…).fakes`, TypeScript fake modules (with `observed`), or both. */
  fakes?: FakesInput;
  /** The world: a WorldSource (`loadFakes(…).world`) or `world(scenario, clock)`. */
  world?: WorldOption;
  /** The scenario names, or an object keyed by them (a world function's SCENARIOS). */
  scenarios?: readonly string[] | Record<string, unknown>;
  /** The Recipe's own invariants of a world: throws when one fails. */
  consistent?(world: World, scenario: string): unknown;
  /** The clock worlds are built at; now by default. */
  clock?: string | number | Date;
  /** The record the contract tests write (JSON lines, one per call; see `recording` in eval-simulate/testing). */
  record?: string | URL;
  /** @deprecated The old name of `record`. */
  recording?: string | URL;
  /**
   * Every allowed tool of every MCP fake must have an observation (observed.json) that a recorded
   * answer was held to: a tool without one fails the observed check instead of leaving it not checked.
   */
  requireObserved?: boolean;
  /** Each test's timeout in milliseconds: 60000 by default. */
  timeout?: number;
}
