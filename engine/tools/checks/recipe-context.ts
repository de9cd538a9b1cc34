/**
 * Everything the checks read about a Recipe, loaded once, on the first check that runs: the
 * fakes (as given, for starting, and normalised, for reading), the world, the allow-lists,
 * the observations and the clock.
 */
import { dirname, relative, resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { type Fakes, type FakesInput, normalizeFakes, type WorldOption } from "../../author/fakes/index.js";
import { loadFakes } from "../../author/fakes/index.js";
import { type Services, startServices } from "../../serve/host/index.js";
import type { Manifest, ServerManifest } from "../../author/model/index.js";
import { openClient } from "../testing/index.js";
import { filePath } from "../testing/index.js";
import { parseClock, type World, type WorldSource } from "../../author/world/index.js";
import { allowedTools, readRecipeServers, type RecipeServers } from "./allow-list.js";
import { CheckFailure } from "./check-failure.js";
import { loadObserved, type ObservedFile, parseObserved } from "./observed-format.js";
import type { RecipeChecksOptions } from "./recipe-options.js";
import type { RecipeNames } from "./recipe-names.js";

/** A Recipe's fakes as the checks read them. */
export interface RecipeContext {
  /** The fakes as given: each start normalises them afresh, as a real start does. */
  inputs: FakesInput;
  /** Every fake normalised (MCP and API), for the world checks. */
  fakes: Fakes;
  /** The MCP fakes' manifests by id: captures, entity maps, observations. */
  servers: Record<string, ServerManifest>;
  world: WorldOption;
  scenarios: string[];
  defaultScenario: string;
  clock: Date;
  /** The loaded fakes.yaml, when the Recipe has one (its invariants). */
  manifest?: Manifest;
  options: RecipeChecksOptions;
  /** A fresh world for a scenario at the clock. */
  build(scenario: string): Promise<World>;
  /** A fake's allow-list in captured order; throws a CheckFailure when the Recipe does not declare the fake. */
  allowed(id: string): string[];
  /** Where the allow-list comes from, for messages. */
  allowListSource(id: string): string;
  /** A fake's observations and where they came from; undefined when it has none. */
  observed(id: string): { source: string; file: ObservedFile } | undefined;
  /** Starts fresh services for a scenario (the default one unless named). */
  start(scenario?: string): Promise<Services>;
}

const isWorldSource = (world: WorldOption): world is WorldSource => typeof world === "object" && world !== null && typeof world.build === "function";

/** Where a fake's entity map is written, for messages: its fakes.yaml, or its TypeScript manifest. */
export function mapLocation(context: RecipeContext, id: string): string {
  const file = context.servers[id]?.source.file ?? "";
  return /\.(ya?ml|json)$/.test(file) ? `servers.${id}.tools in ${file}` : `the manifest of the TypeScript fake "${id}" (manifest.tools)`;
}

/**
 * Loads what the checks read. Throws (failing every check with the same message) when the
 * manifest is invalid or the fakes or world are missing.
 */
export async function loadRecipeContext(options: RecipeChecksOptions, names: RecipeNames): Promise<RecipeContext> {
  const clock = parseClock(options.clock);
  const loaded = options.manifest === undefined ? undefined : await loadFakes(filePath(options.manifest), { clock });
  const inputs = options.fakes ?? loaded?.fakes;
  const world = options.world ?? loaded?.world;
  if (inputs === undefined || world === undefined)
    throw new Error("[eval-simulate] checkRecipeFakes needs the fakes and a world: pass `manifest`, or `fakes` and `world`");
  const fakes = normalizeFakes(inputs);
  const servers: Record<string, ServerManifest> = {};
  for (const [id, fake] of Object.entries(fakes)) if (fake.kind === "mcp") servers[id] = fake.manifest;
  const scenarios = names.scenarios;
  const defaultScenario = isWorldSource(world) && scenarios.includes(world.defaultScenario) ? world.defaultScenario : scenarios[0];
  let recipe: RecipeServers | undefined;
  const recipeServers = () => (recipe ??= readRecipeServers(options.recipe as string | URL));

  const observedFiles = new Map<string, { source: string; file: ObservedFile } | undefined>();
  const observed = (id: string) => {
    if (!observedFiles.has(id)) {
      const module = (inputs as Record<string, { observed?: unknown }>)[id]?.observed;
      const file = servers[id]?.observedFile;
      const source = servers[id]?.source.file;
      if (module !== undefined)
        observedFiles.set(id, { source: `the observed export of fake "${id}"`, file: parseObserved(module, `the observed export of fake "${id}"`) });
      else if (file !== undefined) {
        const path = source ? resolve(dirname(source), file) : resolve(file);
        observedFiles.set(id, { source: relative(process.cwd(), path) || path, file: loadObserved(path) });
      } else observedFiles.set(id, undefined);
    }
    return observedFiles.get(id);
  };

  const context: RecipeContext = {
    inputs,
    fakes,
    servers,
    world,
    scenarios,
    defaultScenario,
    clock,
    ...(loaded ? { manifest: loaded.manifest } : {}),
    options,
    async build(scenario) {
      if (isWorldSource(world)) return world.build(scenario, new Date(clock));
      const built = await world(scenario, new Date(clock));
      return JSON.parse(JSON.stringify(built ?? null)) as World;
    },
    allowed(id) {
      const fake = servers[id];
      if (options.recipe === undefined) return fake.tools.map((tool) => tool.name);
      const { file, servers: declared } = recipeServers();
      const server = declared.get(id);
      if (!server) {
        throw new CheckFailure(
          `the Recipe ${file} declares no MCP server "${id}" under pi.mcp.servers (it declares ${[...declared.keys()].join(", ")}).\nTo fix: declare "${id}" in the Recipe, or remove the fake`,
        );
      }
      return allowedTools(
        fake.captured.map((tool) => tool.name),
        server,
      );
    },
    allowListSource(id) {
      return options.recipe === undefined ? mapLocation(context, id) : `pi.mcp.servers "${id}" tools in ${recipeServers().file}`;
    },
    observed,
    start(scenario) {
      return startServices(inputs, { world, scenario: scenario ?? defaultScenario, clock });
    },
  };
  return context;
}

/** One started instance of the fakes and a client of the fake under check. */
export interface Started {
  services: Services;
  client: Client;
}

/**
 * Starts `count` fresh instances of the Recipe's fakes, each with a client of fake `id`, runs
 * `fn`, and closes them all after, even when `fn` throws.
 *
 * @example await withStarted(context, "crm", 2, async ([a, b]) => { … });
 */
export async function withStarted<T>(context: RecipeContext, id: string, count: number, fn: (started: Started[]) => Promise<T>): Promise<T> {
  const started: Started[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const services = await context.start();
      const entry: Partial<Started> = { services };
      started.push(entry as Started);
      entry.client = await openClient(services.url(id));
    }
    return await fn(started);
  } finally {
    await Promise.allSettled(started.map((s) => s.client?.close()));
    await Promise.allSettled(started.map((s) => s.services.close()));
  }
}

/** Calls a tool with the raw client: the result, or the JSON-RPC error's message when it rejects. */
export async function rawCall(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; rejected?: string }> {
  try {
    const result = await client.callTool({ name, arguments: args });
    const text = Array.isArray(result.content) ? result.content.map((item) => (item.type === "text" ? item.text : "")).join("\n") : "";
    return { isError: result.isError === true, text };
  } catch (error) {
    return { isError: true, text: "", rejected: (error as Error).message };
  }
}
