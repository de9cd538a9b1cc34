import { basename, dirname, resolve } from "node:path";
import type { ManifestDocument } from "../../../schema/manifest.js";
import { createSchemaCompiler, recordCompileOutcomes, trustCompileOutcomes } from "../contract/index.js";
import { faithfulJson, manifestCacheSlot } from "./manifest-cache.js";
import { IMPLICIT_SCENARIO, isPlainObject, parseClock, type WorldSource, type WorldSpec, worldFromModule, worldFromSpec } from "../world/index.js";
import { checkApi } from "./check-api.js";
import { checkScenarios } from "./check-scenarios.js";
import { checkServer } from "./check-server.js";
import { checkStaticTools } from "./check-static-tools.js";
import { checkWorldReads } from "./check-state-reads.js";
import { compileSharedFunctions, sharedFunctionSources } from "./shared-functions.js";
import { checkWorlds, compileManifestInvariants } from "./check-worlds.js";
import { type Diagnostic, ManifestError } from "../source/index.js";
import { checkNamedSchemas, type LoadContext } from "./load-context.js";
import { RecipeFiles } from "./recipe-files.js";
import { Report } from "../source/index.js";
import { readScenarioFiles } from "./scenario-files.js";
import { checkFiniteNumbers } from "./check-finite.js";
import { readRegularFile } from "../../core/files/index.js";
import { checkAgainstSchema } from "./schema-check.js";
import { SourceDocument } from "../source/index.js";
import { defaultTypesFile, typesStale } from "../typegen/index.js";
import type { ApiManifest, JsonSchema, Manifest, ServerManifest } from "../model/index.js";

export interface LoadOptions {
  /** The clock scenario worlds are built at for their checks; now by default. */
  clock?: string | number | Date;
  /**
   * Read files the manifest names outside its own folder too (by default only regular files in
   * the manifest's folder and below are read; `EVAL_SIMULATE_ALLOW_OUTSIDE=1` also widens it).
   */
  allowOutside?: boolean;
}

export interface LoadResult {
  /** Present when the manifest has no errors (warnings allowed). */
  manifest?: Manifest;
  /** Every problem found, errors and warnings, in file order. */
  diagnostics: Diagnostic[];
}

function ioFailure(file: string, message: string): LoadResult {
  return { diagnostics: [{ code: "E_IO", severity: "error", message, hint: "Check the path.", file, line: 1, column: 1, path: "(root)" }] };
}

/**
 * Reads, validates and checks a fakes.yaml, resolving every file it names, and returns the
 * normalised Manifest with every diagnostic found (all at once, never only the first).
 *
 * @example const { manifest, diagnostics } = await checkManifest("fakes/fakes.yaml");
 */
export async function checkManifest(path: string, options: LoadOptions = {}): Promise<LoadResult> {
  const file = resolve(path);
  const read = readRegularFile(file);
  if (!read.ok) return ioFailure(file, `cannot read ${path}: it ${read.reason}`);
  const text = read.text;
  // A valid manifest's text checked before by this build: its parse, schema check and schema
  // compiles come from the cache (manifest-cache.ts); everything else is checked again.
  const slot = manifestCacheSlot(dirname(file), text);
  const hit = slot?.read();
  if (hit) trustCompileOutcomes(hit.compiles);
  const recording = slot && !hit ? recordCompileOutcomes() : undefined;
  try {
    return await checkSource(file, new SourceDocument(file, text, hit), options, { hit: hit !== undefined, recording, slot });
  } finally {
    recording?.stop();
  }
}

/** How `checkSource` uses the manifest cache. */
interface CacheUse {
  hit: boolean;
  recording?: ReturnType<typeof recordCompileOutcomes>;
  slot?: ReturnType<typeof manifestCacheSlot>;
}

async function checkSource(file: string, source: SourceDocument, options: LoadOptions, cache: CacheUse): Promise<LoadResult> {
  const report = new Report(source);
  for (const problem of source.problems) {
    report.error(problem.code, [], problem.message, { position: problem.position });
  }
  if (source.problems.length > 0) return { diagnostics: sorted(report.diagnostics) };
  if (!cache.hit) report.diagnostics.push(...checkAgainstSchema(source));
  if (report.failed && (typeof source.value !== "object" || source.value === null)) return { diagnostics: sorted(report.diagnostics) };
  // The value as parsed, before the checks below read data files into it.
  const parsed = cache.recording && !report.failed ? faithfulJson(source.value) : undefined;

  const raw = source.value as ManifestDocument;
  // A section of the wrong shape was reported by the schema check; later checks see it empty.
  const map = <T>(value: T | undefined): T => (isPlainObject(value) ? value : ({} as T));
  const document: ManifestDocument = {
    ...raw,
    servers: map(raw.servers),
    apis: map(raw.apis),
    scenarios: raw.scenarios === undefined ? undefined : map(raw.scenarios),
    schemas: map(raw.schemas),
    invariants: Array.isArray(raw.invariants) ? raw.invariants : [],
  };
  const files = new RecipeFiles(dirname(file), { allowOutside: options.allowOutside });
  const context: LoadContext = {
    dir: dirname(file),
    files,
    report,
    schemas: (document.schemas ?? {}) as Record<string, JsonSchema>,
    brokenSchemas: new Set(),
    compiler: createSchemaCompiler(),
    notedPatterns: new Set(),
    functions: [],
  };
  // Data files first: from here on their values count as written in place, and every number
  // (inline or read) must be finite.
  readScenarioFiles(raw as unknown as Record<string, unknown>, context);
  checkFiniteNumbers(raw, report);
  // Sub-trees the schema already refused are not checked further: their shape is unknown.
  const sound = (path: (string | number)[]) => !report.hasErrorsUnder(path);

  const schemas = checkNamedSchemas(context, sound);
  if (isPlainObject(raw.functions) && sound(["functions"])) context.functions = compileSharedFunctions(raw.functions, context);
  const servers: ServerManifest[] = [];
  for (const [id, server] of Object.entries(document.servers ?? {})) {
    const checked = sound(["servers", id]) ? await checkServer(id, server, context) : undefined;
    if (checked) servers.push(checked);
  }
  const apis: ApiManifest[] = [];
  for (const [id, api] of Object.entries(document.apis ?? {})) {
    if (Object.hasOwn(document.servers ?? {}, id)) {
      report.error("E_DUPLICATE_ID", ["apis", id], `"${id}" is the id of a server and of an api`, { key: true });
      continue;
    }
    const checked = sound(["apis", id]) ? await checkApi(id, api, context) : undefined;
    if (checked) apis.push(checked);
  }
  const ids = [...Object.keys(document.servers ?? {}), ...Object.keys(document.apis ?? {})];
  const declared = new Map<string, { kind: "tool" | "operation"; names: string[] }>([
    ...Object.entries(document.servers ?? {}).map(([id, s]) => [id, { kind: "tool" as const, names: Object.keys(map(s?.tools)) }] as const),
    ...Object.entries(document.apis ?? {}).map(([id, a]) => [id, { kind: "operation" as const, names: Object.keys(map(a?.operations)) }] as const),
  ]);
  const unsound = new Set(Object.keys(document.scenarios ?? {}).filter((name) => !sound(["scenarios", name])));
  const { scenarios, spec } = checkScenarios(document.scenarios ?? {}, { servers, apis, ids, declared }, context, unsound);
  checkStaticTools(servers, spec, context);
  checkWorldReads(document.invariants ?? [], ids, new Map([...servers, ...apis].map((fake) => [fake.id, fake.entities.map((entity) => entity.name)])), context);
  const functions = sharedFunctionSources(context, raw.functions);
  const invariants = compileManifestInvariants(
    (document.invariants ?? []).filter((inv, i) => sound(["invariants", i]) && isPlainObject(inv)),
    context,
    functions,
  );

  let world: WorldSource | undefined;
  if (document.world !== undefined && document.scenarios !== undefined) {
    report.error("E_WORLD_MODULE", ["world"], "a manifest takes `world` (a module) or `scenarios`, not both", { key: true });
  } else if (document.world !== undefined) {
    const located = files.locate(document.world);
    if (!located.ok) report.error("E_IO", ["world"], `the world module ${document.world} ${located.reason}`);
    else {
      try {
        world = await worldFromModule(located.file);
      } catch (error) {
        report.error("E_WORLD_MODULE", ["world"], (error as Error).message.replace(/^\[eval-simulate\] /, ""));
      }
    }
  } else if (!report.failed) {
    world = worldFromSpec(spec);
  }
  if (world && !report.failed) {
    await checkWorlds(world, document.world ? undefined : spec, { servers, apis }, invariants, parseClock(options.clock), context);
  }
  if (report.failed || !world) return { diagnostics: sorted(report.diagnostics) };
  const manifest: Manifest = {
    file,
    dir: context.dir,
    servers,
    apis,
    schemas,
    scenarios,
    defaultScenario: world.defaultScenario ?? IMPLICIT_SCENARIO,
    invariants: invariants.manifests,
    redact: document.redact ?? [],
    world,
    ...(Object.keys(functions).length > 0 ? { functions } : {}),
  };
  const typesFile = defaultTypesFile(file);
  if (typesStale(manifest, typesFile)) report.warn("W_TYPES_STALE", [], `${basename(typesFile)} was generated from an earlier version of this manifest`);
  if (parsed !== undefined && cache.recording) {
    // Every location the manifest carries, read now or not, so a hit never parses to place one.
    report.placeLocations();
    cache.slot?.write({ value: parsed, positions: source.positionsAsked(), compiles: cache.recording.stop() });
  }
  return { manifest, diagnostics: sorted(report.diagnostics) };
}

/**
 * Loads a fakes.yaml into a Manifest, or throws a ManifestError carrying every diagnostic.
 *
 * @example const manifest = await loadManifest("fakes/fakes.yaml");
 */
export async function loadManifest(path: string, options: LoadOptions = {}): Promise<Manifest> {
  const { manifest, diagnostics } = await checkManifest(path, options);
  if (!manifest) throw new ManifestError(diagnostics);
  return manifest;
}

function sorted(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}

export type { WorldSpec };
