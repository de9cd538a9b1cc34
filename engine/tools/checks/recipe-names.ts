/**
 * The names the checks are registered under: the fakes' ids and the scenarios' names, found
 * without awaiting anything, so every test is registered while the test file loads (vitest
 * collects tests only then, and node:test runs hooks around the tests registered by then).
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { filePath } from "../testing/index.js";
import { IMPLICIT_SCENARIO } from "../../author/world/index.js";
import type { RecipeChecksOptions } from "./recipe-options.js";

/** The fake ids and scenario names of a Recipe. */
export interface RecipeNames {
  ids: string[];
  scenarios: string[];
}

const keys = (value: unknown): string[] => (value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : []);

function manifestDocument(manifest: string | URL): Record<string, unknown> {
  const file = filePath(manifest);
  try {
    // yaml's duplicate-key check is quadratic (a 100,000-key world never finishes); validate reports duplicates.
    const document = parse(readFileSync(file, "utf8"), { maxAliasCount: 1000, merge: true, uniqueKeys: false }) as unknown;
    return document && typeof document === "object" ? (document as Record<string, unknown>) : {};
  } catch (error) {
    throw new Error(`[eval-simulate] checkRecipeFakes cannot read the manifest ${file}: ${(error as Error).message}; run eval-simulate validate ${file}`);
  }
}

function scenarioNames(options: RecipeChecksOptions, document: Record<string, unknown> | undefined): string[] {
  const { scenarios, world } = options;
  if (scenarios !== undefined) return Array.isArray(scenarios) ? [...scenarios] : Object.keys(scenarios);
  if (world !== undefined && typeof world === "object" && Array.isArray(world.scenarios) && world.scenarios.length > 0) return [...world.scenarios];
  if (world === undefined && document !== undefined && document.world === undefined) {
    const declared = keys(document.scenarios);
    return declared.length > 0 ? declared : [IMPLICIT_SCENARIO];
  }
  throw new Error(
    "[eval-simulate] checkRecipeFakes cannot list the scenarios of a world function or module: pass `scenarios` (the names, or the SCENARIOS object keyed by them)",
  );
}

/**
 * The fake ids and scenario names the checks are named after, read synchronously: from the
 * options, else from the manifest's YAML. Throws for a Recipe whose scenarios only a function
 * knows, asking for `scenarios`.
 *
 * @example recipeNames({ test, manifest: "fakes.yaml" }); // { ids: ["crm"], scenarios: ["quiet", "pipeline-review"] }
 */
export function recipeNames(options: RecipeChecksOptions): RecipeNames {
  if (options.fakes === undefined && options.manifest === undefined) {
    throw new Error("[eval-simulate] checkRecipeFakes needs the fakes: pass `manifest` (a fakes.yaml) or `fakes` and `world`");
  }
  const document = options.manifest === undefined ? undefined : manifestDocument(options.manifest);
  // The per-fake checks are about MCP fakes; an API fake's world is checked with the scenarios.
  const ids =
    options.fakes !== undefined
      ? Object.entries(options.fakes)
          .filter(([, fake]) => (fake as { kind?: string }).kind !== "api")
          .map(([id]) => id)
      : keys(document?.servers);
  return { ids, scenarios: scenarioNames(options, document) };
}
