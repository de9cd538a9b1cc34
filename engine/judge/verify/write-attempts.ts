/**
 * "No write attempted": the calls an agent made to a tool (or an API operation) that the entity
 * map says writes, whether or not the call changed anything.
 */
import { type ToolNameIndex, toolNameIndex } from "./tool-names.js";
import { entityMapOf, requireManifests, type ToolNamer, type WriteAttempt, type WriteMap, type WriteMaps } from "../../core/record/index.js";

type Call = Record<string, unknown>;

export interface WriteAttemptsOptions<T> {
  /**
   * The caller's own naming: the fake and contract tool name of a call, or `undefined` to let the
   * built-in forms (record lines, harness names) decide.
   */
  toolName?: ToolNamer<T>;
}

/** A call's arguments, parsed when a transcript keeps them as JSON text. */
function argumentsOf(call: Call): Call | undefined {
  const args = call.args ?? call.input ?? call.arguments ?? call.parameters ?? (call.function as Call | undefined)?.arguments;
  if (typeof args === "string") {
    try {
      return JSON.parse(args) as Call;
    } catch {
      return undefined;
    }
  }
  return typeof args === "object" && args !== null ? (args as Call) : undefined;
}

/**
 * The harness name of a transcript's tool call: `name`, `toolName`, `tool_name`, `tool` or
 * `function.name`. Pi's MCP adapter calls every server through one proxy tool, `mcp`, naming the
 * tool in its arguments (`mcp({ tool: "crm_create_note", args })`): that inner name is the call's.
 */
function harnessName(call: Call): string | undefined {
  let name: string | undefined;
  for (const key of ["name", "toolName", "tool_name", "tool"]) {
    if (typeof call[key] === "string") {
      name = call[key] as string;
      break;
    }
  }
  const fn = call.function as Call | undefined;
  name ??= typeof fn?.name === "string" ? fn.name : undefined;
  if (name !== "mcp") return name;
  const inner = argumentsOf(call)?.tool;
  return typeof inner === "string" ? inner : name;
}

/** The entity-map name an API record's `METHOD /template` (or operationId) refers to. */
export function operationKey(map: Record<string, { method?: string; path?: string }>, operation: string): string | undefined {
  if (Object.hasOwn(map, operation)) return operation;
  return Object.keys(map).find((key) => `${map[key].method} ${map[key].path}` === operation);
}

/**
 * Whether a request to an emulate built-in writes: it has no entity map, so every request that is
 * not a read counts as one. Undefined for any other fake, whose entity map says.
 */
function emulatedWrite(manifest: WriteMap | undefined, operation: string): boolean | undefined {
  if (manifest?.kind !== "api" || !manifest.emulate) return undefined;
  return !/^(GET|HEAD|OPTIONS) /.test(operation);
}

function target(call: Call, manifests: WriteMaps, index: ToolNameIndex): { server: string; tool: string } | undefined {
  if (typeof call.server === "string" && typeof call.tool === "string") return { server: call.server, tool: call.tool };
  if (typeof call.api === "string" && typeof call.operation === "string") {
    const manifest = Object.hasOwn(manifests, call.api) ? manifests[call.api] : undefined;
    const emulated = emulatedWrite(manifest, call.operation);
    if (emulated !== undefined) return emulated ? { server: call.api, tool: call.operation } : undefined;
    const tool = manifest?.kind === "api" ? operationKey(manifest.operations, call.operation) : undefined;
    return tool === undefined ? undefined : { server: call.api, tool };
  }
  const name = harnessName(call);
  if (name === undefined) return undefined;
  const found = index.resolve(name);
  if (found.length <= 1) return found[0];
  const writers = found.filter((pair) => writes(manifests, pair));
  if (writers.length === 0) return undefined; // whichever was meant, it was no write
  // Guessing could miss a write attempt, and dropping it would score as "no write attempted".
  const candidates = found.map((pair) => `${pair.server}/${pair.tool}`).join(", ");
  throw new Error(
    `[eval-simulate] the tool call "${name}" is ambiguous: it may be any of ${candidates}, and some of them write; pass options.toolName to say which fake it went to`,
  );
}

function writes(manifests: WriteMaps, pair: { server: string; tool: string }): boolean {
  const manifest = Object.hasOwn(manifests, pair.server) ? manifests[pair.server] : undefined;
  if (!manifest) return false;
  const emulated = emulatedWrite(manifest, pair.tool);
  if (emulated !== undefined) return emulated;
  const map = entityMapOf(manifest);
  return Object.hasOwn(map, pair.tool) && map[pair.tool].writes.length > 0;
}

/**
 * The calls to a tool or operation whose entity map lists writes, each returned with `server`
 * (the fake's id) and `tool` (its contract name), in call order. A refused call counts: this is
 * an attempt check, to score beside `changedEntities`, not instead of it.
 *
 * Calls may be record lines (`{ server, tool, … }`, `{ api, operation, … }`) or a transcript's
 * tool calls (`{ name, args }`, `{ toolName, input }`, `{ function: { name } }`, Pi's MCP
 * adapter's `{ name: "mcp", args: { tool } }`), named as `tool-names.ts` lists; `toolName` is
 * asked first. Calls to other tools or fakes are left out. A name that several tools may mean
 * (a bare name two fakes serve), some of which write, throws rather than guess. Throws on an
 * empty set of manifests.
 *
 * @example
 * writeAttempts(readRecord("/logs/calls.jsonl"), { crm: manifests.crm });
 * // [{ server: "crm", tool: "create-note", args: {...}, result: {...} }]; none attempted when empty
 * writeAttempts([{ name: "mcp__crm__create-note", args: {} }], manifests);
 */
export function writeAttempts<T extends object>(calls: readonly T[], manifests: WriteMaps, options: WriteAttemptsOptions<T> = {}): Array<WriteAttempt<T>> {
  requireManifests(manifests, "writeAttempts");
  if (!Array.isArray(calls)) throw new Error("[eval-simulate] writeAttempts needs the calls as an array");
  const index = toolNameIndex(manifests);
  const attempts: Array<WriteAttempt<T>> = [];
  for (const call of calls) {
    if (typeof call !== "object" || call === null) continue;
    const pair = options.toolName?.(call) ?? target(call as Call, manifests, index);
    if (pair && writes(manifests, pair)) attempts.push({ ...call, server: pair.server, tool: pair.tool });
  }
  return attempts;
}
