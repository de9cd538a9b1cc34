// biome-ignore-all lint/suspicious/noExplicitAny: a fake module's callbacks take the arguments the SDK hands them, typed by each module itself.
import type { ToolContext } from "../handlers/index.js";
import type { McpFake } from "./served-fake.js";
import type { EntityManifest, ServerManifest, SourceLocation, ToolManifest } from "../model/index.js";
import { capturedOrder, type Contract } from "./contract-of.js";
import { CONFIG_OF, type ToolConfig } from "./tools-of.js";

/** A tool callback as registered on an MCP server: arguments (defaults filled) and an extra. */
export type RegisteredCallback = (args: any, extra: { signal: AbortSignal }) => unknown;

/** The part of an `McpServer` a fake's `register` uses; the host records what it registers. */
export interface ToolRegistrar {
  registerTool(name: string, config: ToolConfig, callback: RegisteredCallback): unknown;
}

/** What a fake declares about itself: its entity map and state, as a manifest.json holds it. */
export interface FakeManifestJson {
  description?: string;
  /** The Recipe cannot run without it: a subset of the fakes that leaves it out refuses to start. */
  required?: boolean;
  timeoutMs?: number;
  /** The allow-list and entity map. */
  tools: Record<string, { kind?: "stateful" | "static"; reads?: readonly string[]; writes?: readonly string[] }>;
  entities?: Record<string, { schema?: Record<string, unknown> | boolean; default?: unknown; description?: string }> | readonly string[];
}

/** A fake declared in TypeScript, as seed Recipes keep them: a manifest, a contract, and `register`. */
export interface McpFakeModule<State = any> {
  manifest: FakeManifestJson;
  contract: Contract;
  register(server: ToolRegistrar, state: State): void;
}

/** True for a value that looks like an McpFakeModule rather than an McpFake. */
export function isMcpFakeModule(value: unknown): value is McpFakeModule {
  const v = value as Partial<McpFakeModule> | null;
  return !!v && typeof v === "object" && typeof v.register === "function" && !!v.contract && !!v.manifest;
}

/**
 * Turns a TypeScript-declared fake into the runtime's McpFake, so both front ends share one
 * runtime. `register` runs once, here, against a recorder; the state it is given reads and writes
 * the current call's draft (calls to one fake run one at a time, so there is only one).
 * Refuses to start unless the tools registered are exactly the manifest's, each with
 * `config(name)` for that same name, in captured order.
 *
 * @example startServices({ attio: mcpFakeFromModule("attio", attio) }, { world });
 */
export function mcpFakeFromModule(id: string, module: McpFakeModule): McpFake {
  const refuse = (why: string): never => {
    throw new Error(`[eval-simulate] fake "${id}" cannot start: ${why}`);
  };
  let current: Record<string, unknown> = {};
  const state = new Proxy({} as Record<string, unknown>, {
    get: (_, key) => current[key as string],
    set: (_, key, value) => Reflect.set(current, key, value),
    has: (_, key) => key in current,
    ownKeys: () => Reflect.ownKeys(current),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(current, key);
      return found && { ...found, configurable: true };
    },
  });
  const registered: Array<{ name: string; config: ToolConfig; callback: RegisteredCallback }> = [];
  module.register({ registerTool: (name, config, callback) => void registered.push({ name, config, callback }) }, state);

  const allowed = capturedOrder(module.contract).filter((name) => name in module.manifest.tools);
  for (const name of Object.keys(module.manifest.tools)) {
    if (!module.contract[name]) refuse(`its manifest lists "${name}", which its contract does not hold`);
  }
  const names = registered.map((r) => r.name);
  if (names.join("\n") !== allowed.join("\n")) {
    refuse(`its handlers register [${names.join(", ")}] but its manifest allows [${allowed.join(", ")}], in captured order`);
  }
  for (const { name, config } of registered) {
    if (config?.[CONFIG_OF] !== name) refuse(`"${name}" is not registered with config("${name}")`);
  }

  const source = (path: string): SourceLocation => ({ file: `(typescript fake ${id})`, line: 1, column: 1, path });
  const entityList = Array.isArray(module.manifest.entities)
    ? Object.fromEntries((module.manifest.entities as string[]).map((name) => [name, {}]))
    : (module.manifest.entities ?? {});
  const entities: EntityManifest[] = Object.entries(entityList).map(([name, e]) => ({
    name,
    description: (e as { description?: string }).description,
    schema: (e as { schema?: Record<string, unknown> | boolean }).schema ?? true,
    default: (e as { default?: unknown }).default,
    source: source(`entities.${name}`),
  }));
  const tools: ToolManifest[] = registered.map(({ name, callback }) => {
    const entry = module.contract[name];
    const map = module.manifest.tools[name];
    return {
      name,
      captured: entry.tool,
      kind: map.kind ?? "stateful",
      reads: [...(map.reads ?? [])],
      writes: [...(map.writes ?? [])],
      answer: entry.answer,
      handler: {
        kind: "module",
        fn: (args: unknown, context: ToolContext) => {
          current = context.state;
          return callback(args, { signal: context.signal });
        },
        file: `(typescript fake ${id})`,
        source: source(`tools.${name}`),
      },
      source: source(`tools.${name}`),
    };
  });
  const manifest: ServerManifest = {
    id,
    description: module.manifest.description,
    ...(module.manifest.required === true && { required: true }),
    captured: capturedOrder(module.contract).map((name) => module.contract[name].tool),
    tools,
    entities,
    timeoutMs: module.manifest.timeoutMs ?? 30_000,
    source: source(""),
  };
  return { kind: "mcp", manifest };
}
