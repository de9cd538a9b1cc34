/**
 * Process tests run the built package (`dist/cli/main.js`, `dist/engine/…`), so a stale dist/
 * would test yesterday's code: a broken judge once passed verify-cli.test.ts until a rebuild.
 * The process and browser projects run this file as their vitest global setup: it compares every
 * source tsconfig.build.json compiles with the file it becomes, builds when one is newer or
 * missing, and fails naming the file when the build does not make dist/ current.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./examples.js";

/** The folders tsconfig.build.json compiles into dist/, and the configs that shape every output. */
const SOURCE_FOLDERS = ["engine", "cli", "schema"];
const CONFIGS = ["tsconfig.json", "tsconfig.build.json"];
/** The published schemas the build precompiles, by the name of their module in dist/validators/. */
const VALIDATORS = [
  ["manifest", "eval-simulate.schema.json"],
  ["evals", "eval-simulate.evals.schema.json"],
] as const;

/** What a build printed and how it ended. */
export interface BuildResult {
  status: number | null;
  output: string;
}

/** The sources that become dist/ files, relative to `root`: `.ts` but not tests or declarations. */
function sources(root: string, folder: string): string[] {
  if (!existsSync(join(root, folder))) return [];
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sources(root, path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const modified = (file: string): number | undefined => (existsSync(file) ? statSync(file).mtimeMs : undefined);

/**
 * Why dist/ under `root` is not current, one line a file: a source newer than its output, an
 * output missing, a tsconfig newer than the oldest output. Empty when dist/ is current.
 */
export function staleDist(root = ROOT): string[] {
  const reasons: string[] = [];
  let oldest = Number.POSITIVE_INFINITY;
  for (const source of SOURCE_FOLDERS.flatMap((folder) => sources(root, folder))) {
    const output = `dist/${source.replace(/\.ts$/, ".js")}`;
    const built = modified(join(root, output));
    if (built === undefined) {
      reasons.push(`${output} is missing (the build of ${source})`);
      continue;
    }
    oldest = Math.min(oldest, built);
    if ((modified(join(root, source)) ?? 0) > built) reasons.push(`${source} is newer than ${output}`);
  }
  // The viewer's bundle is one output of every file under viewer/ (esbuild, `npm run build`).
  const bundle = modified(join(root, "dist/viewer/viewer.js"));
  const viewerSources = existsSync(join(root, "viewer")) ? readdirSync(join(root, "viewer"), { recursive: true, encoding: "utf8" }) : [];
  if (viewerSources.length > 0 && bundle === undefined) reasons.push("dist/viewer/viewer.js is missing (the bundle of viewer/)");
  for (const file of viewerSources) {
    if (bundle !== undefined && (modified(join(root, "viewer", file)) ?? 0) > bundle) reasons.push(`viewer/${file} is newer than dist/viewer/viewer.js`);
  }
  // The package's bundle (scripts/bundle.mjs) rewrites its entry files from the sources after tsc.
  if (existsSync(join(root, "scripts/bundle.mjs")) && Number.isFinite(oldest)) {
    const bundled = modified(join(root, "dist/bundle-inputs.json"));
    if (bundled === undefined) reasons.push("dist/bundle-inputs.json is missing (the bundle of the package's entries)");
    else if (bundled < oldest) reasons.push("dist/bundle-inputs.json is older than tsc's files (the bundle of the package's entries)");
    // It also holds the MCP SDK as node_modules has it, and is shaped by its own script.
    else {
      for (const input of ["scripts/bundle.mjs", "node_modules/.package-lock.json"]) {
        if ((modified(join(root, input)) ?? 0) > bundled) reasons.push(`${input} is newer than dist/bundle-inputs.json (the bundle of the package's entries)`);
      }
    }
  }
  // The published schemas' standalone validators (scripts/build-validators.mjs, `npm run build`).
  for (const [name, schema] of VALIDATORS) {
    if (!existsSync(join(root, "scripts/build-validators.mjs")) || !existsSync(join(root, schema))) continue;
    const built = modified(join(root, `dist/validators/${name}.cjs`));
    if (built === undefined) reasons.push(`dist/validators/${name}.cjs is missing (the standalone validator of ${schema})`);
    else if ((modified(join(root, schema)) ?? 0) > built) reasons.push(`${schema} is newer than dist/validators/${name}.cjs`);
  }
  // The build's id (scripts/build-id.mjs), which the manifest cache keys its entries by, hashes every output.
  if (existsSync(join(root, "scripts/build-id.mjs")) && Number.isFinite(oldest)) {
    const id = modified(join(root, "dist/build-id.txt"));
    if (id === undefined) reasons.push("dist/build-id.txt is missing (the build's id)");
    else if (id < oldest) reasons.push("dist/build-id.txt is older than the build");
  }
  for (const config of CONFIGS) {
    const changed = modified(join(root, config));
    if (changed !== undefined && changed > oldest) reasons.push(`${config} is newer than the oldest file in dist/`);
  }
  return reasons;
}

/** `tsc -p tsconfig.build.json`, the package's bundle, the viewer's bundle and the standalone validators, what `npm run build` runs, without npm around it. */
export function buildDist(root = ROOT): BuildResult {
  const run = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: root, encoding: "utf8" });
  let output = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}`;
  if (run.status !== 0) return { status: run.status, output };
  // build-id.mjs last: it hashes what the others wrote.
  for (const script of ["scripts/bundle.mjs", "scripts/build-viewer.mjs", "scripts/build-validators.mjs", "scripts/build-id.mjs"]) {
    if (!existsSync(join(root, script))) continue;
    const step = spawnSync(process.execPath, [script], { cwd: root, encoding: "utf8" });
    output += `${step.stdout ?? ""}${step.stderr ?? ""}${step.error ? String(step.error) : ""}`;
    if (step.status !== 0) return { status: step.status, output };
  }
  return { status: 0, output };
}

const named = (reasons: string[]) => `${reasons[0]}${reasons.length > 1 ? ` (and ${reasons.length - 1} more)` : ""}`;

/**
 * Makes dist/ current: nothing when it is, else one build, then checks again. Throws naming the
 * stale file when the build fails or leaves dist/ stale.
 */
export function ensureFreshDist(options: { root?: string; build?: (root: string) => BuildResult } = {}): { built: boolean; stale: string[] } {
  const root = options.root ?? ROOT;
  const stale = staleDist(root);
  if (stale.length === 0) return { built: false, stale };
  const build = (options.build ?? buildDist)(root);
  if (build.status !== 0) throw new Error(`[test] dist/ is stale: ${named(stale)}; the build (tsc -p tsconfig.build.json) failed:\n${build.output}`);
  const still = staleDist(root);
  if (still.length > 0) throw new Error(`[test] dist/ is still stale after a build: ${named(still)}`);
  return { built: true, stale };
}

/** The vitest global setup of the process and browser projects. */
export default function setup(): void {
  const started = performance.now();
  const { built, stale } = ensureFreshDist();
  if (built) process.stderr.write(`[test] dist/ was stale (${named(stale)}): built it in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
