import { fakeKind, type LoadedFakes } from "../../author/fakes/index.js";
import type { RecordedCall, WriteMaps } from "../../core/record/index.js";
import { toolNameIndex } from "../verify/index.js";
import { operationKey } from "../verify/index.js";

/** A call of a run as the judge reads it: its number (#1 first), fake, contract name and arguments. */
export interface JudgedCall {
  /** 1-based position in the record. */
  number: number;
  server: string;
  tool: string;
  /** An MCP call's arguments; an API call's request (`params`, `query`, `headers`, `body`). */
  args: unknown;
  /** True when the call failed (a tool error, a JSON-RPC error, an HTTP status of 400 or more). */
  failed: boolean;
  line: RecordedCall;
}

/** The fakes' write maps (what verify reads) and a resolver of the names cases give tools. */
export interface FakeMaps {
  maps: WriteMaps;
  /** `server/tool` pairs a name means (as writeAttempts resolves them): none, one, or several when ambiguous. */
  resolve(name: string): Array<{ server: string; tool: string }>;
  /** Every `<fake>.<entity>`. */
  entities: string[];
}

/**
 * The write maps of loaded fakes, and the name resolver built on them.
 *
 * @example fakeMaps(await loadFakes("fakes.yaml")).resolve("mcp__tickets__close-ticket") // [{ server: "tickets", tool: "close-ticket" }]
 */
export function fakeMaps(loaded: Pick<LoadedFakes, "fakes">): FakeMaps {
  // Built once per set of loaded fakes (~3 ms for the crm example): an eval run judges every trial with them.
  let made = madeMaps.get(loaded.fakes);
  if (!made) madeMaps.set(loaded.fakes, (made = buildFakeMaps(loaded)));
  return made;
}

const madeMaps = new WeakMap<object, FakeMaps>();

function buildFakeMaps(loaded: Pick<LoadedFakes, "fakes">): FakeMaps {
  const maps: WriteMaps = {};
  for (const [id, fake] of Object.entries(loaded.fakes)) maps[id] = fakeKind(fake).writeMap(fake);
  const index = toolNameIndex(maps);
  return {
    maps,
    resolve: (name) => index.resolve(name),
    entities: Object.values(maps).flatMap((map) => map.entities.map((entity) => `${map.id}.${entity}`)),
  };
}

function failedResult(result: unknown): boolean {
  if (!result || typeof result !== "object") return false;
  const r = result as { isError?: unknown; error?: unknown };
  return r.isError === true || r.error !== undefined;
}

/**
 * The run's calls with their fake and contract name: record lines name both (an API line's
 * `METHOD /template` is read back to its operation's name).
 *
 * @example judgedCalls(run.calls, maps)[0] // { number: 1, server: "tickets", tool: "list-tickets", args: {}, failed: false, line }
 */
export function judgedCalls(calls: readonly RecordedCall[], maps: WriteMaps): JudgedCall[] {
  return calls.map((line, i) => {
    if ("server" in line) return { number: i + 1, server: line.server, tool: line.tool, args: line.args ?? {}, failed: failedResult(line.result), line };
    const map = maps[line.api];
    const tool = (map?.kind === "api" ? operationKey(map.operations, line.operation) : undefined) ?? line.operation;
    const status = (line.response as { status?: unknown } | undefined)?.status;
    return { number: i + 1, server: line.api, tool, args: line.request ?? {}, failed: typeof status === "number" && status >= 400, line };
  });
}
