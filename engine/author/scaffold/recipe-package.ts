/**
 * The Recipe's `package.json` as `init` leaves it: an ES module (its test file imports), with
 * eval-simulate and the official client as dev dependencies and `npm test` running its tests. A
 * package.json already there is completed, never overwritten: what it says stays, and only what
 * is missing is added, each addition named.
 */

/** The versions a written package.json depends on. */
export interface RecipeVersions {
  /** eval-simulate's own version (the running package). */
  evalSimulate: string;
  /** The `@modelcontextprotocol/client` version eval-simulate is tested with. */
  client: string;
}

/** A package.json after `init`, and what `init` added to it. */
export interface RecipePackage {
  text: string;
  /** What was added, one phrase each (empty when the file already said everything). */
  added: string[];
  /** Why the Recipe's tests cannot run as the file stands (`"type": "commonjs"`). */
  warnings: string[];
}

const TEST_SCRIPT = "node --test";

/**
 * The Recipe's package.json: `existing` (its parsed text, or undefined when there is none)
 * completed with `"type": "module"`, a `test` script and both dev dependencies.
 *
 * @example recipePackage(undefined, "memory-recipe", { evalSimulate: "0.1.0", client: "2.4.0" }).text
 */
export function recipePackage(existing: Record<string, unknown> | undefined, name: string, versions: RecipeVersions): RecipePackage {
  const json: Record<string, unknown> = existing ? { ...existing } : { name, private: true };
  const added: string[] = [];
  const warnings: string[] = [];
  if (json.type === undefined) {
    json.type = "module";
    added.push('"type": "module"');
  } else if (json.type !== "module") {
    warnings.push(`package.json says "type": ${JSON.stringify(json.type)}: tests/fakes.test.js is an ES module and needs "type": "module"`);
  }
  const scripts = { ...((json.scripts as Record<string, string> | undefined) ?? {}) };
  if (scripts.test === undefined || /no test specified/.test(scripts.test)) {
    scripts.test = TEST_SCRIPT;
    added.push(`the test script "${TEST_SCRIPT}"`);
  }
  json.scripts = scripts;
  const dependencies = (json.dependencies as Record<string, string> | undefined) ?? {};
  const devDependencies = { ...((json.devDependencies as Record<string, string> | undefined) ?? {}) };
  const wanted: Array<[string, string]> = [
    ["eval-simulate", `^${versions.evalSimulate}`],
    ["@modelcontextprotocol/client", versions.client],
  ];
  for (const [pkg, version] of wanted) {
    if (dependencies[pkg] !== undefined || devDependencies[pkg] !== undefined) continue;
    devDependencies[pkg] = version;
    added.push(`${pkg}@${version}`);
  }
  json.devDependencies = devDependencies;
  return { text: `${JSON.stringify(json, null, 2)}\n`, added, warnings };
}

/**
 * The path a modeline in a file of the Recipe folder names the installed package's folder by,
 * relative to that folder (as yaml-language-server resolves it): from `installed`, the package
 * folder found walking up from the Recipe (undefined when it is not installed yet: then where
 * `npm install` of the written package.json puts it). Always with forward slashes.
 *
 * @example modelinePackagePath("../../node_modules/eval-simulate") // "../../node_modules/eval-simulate"
 */
export function modelinePackagePath(installed: string | undefined): string {
  if (installed === undefined) return "./node_modules/eval-simulate";
  const path = installed.replace(/\\/g, "/");
  return path.startsWith(".") ? path : `./${path}`;
}
