/**
 * The data a run's checks read: each fake's write map (from `--manifest-dir` or `fakes.yaml`),
 * its states before and after, and the calls an agent made. Plain JSON shapes, so a judge that
 * only has the files can build them.
 */

/** One MCP tool's entity map, as `mcp/<id>/manifest.json` writes it. */
export interface ToolWrites {
  kind?: "stateful" | "static";
  reads: string[];
  writes: string[];
}

/**
 * One API operation's entity map, keyed in its manifest by operationId or `METHOD /template`.
 * `method` and `path` let a record line (`operation: "METHOD /template"`) find an operation
 * keyed by its operationId.
 */
export interface OperationWrites {
  reads: string[];
  writes: string[];
  method?: string;
  path?: string;
}

/** The fields of a fake's manifest the checks read: its id, its entities and its entity map. */
export type WriteMap =
  | { id: string; kind: "mcp"; description?: string; entities: string[]; tools: Record<string, ToolWrites> }
  | { id: string; kind: "api"; description?: string; entities: string[]; operations: Record<string, OperationWrites>; emulate?: string };

/** Write maps by fake id, as `loadManifests` returns them. */
export type WriteMaps = Record<string, WriteMap>;

/** Every fake's state keyed by fake id, then by entity. */
export type StatesByFake = Record<string, Record<string, unknown>>;

/** A run's states: where it started and where it ended, each keyed by fake id. */
export interface FakeStates<T = StatesByFake> {
  initial: T;
  final: T;
}

/** A call to a write tool or operation, with the fake it went to and its contract name. */
export type WriteAttempt<T extends object = Record<string, unknown>> = T & { server: string; tool: string };

/** A tool call as `--record` writes it; `result` is `{ error: { code, message } }` for a JSON-RPC error. */
export interface RecordedToolCall {
  server: string;
  tool: string;
  args: unknown;
  result: unknown;
  /** `"arguments"` when the fake refused the arguments before any handler ran (whatever its error text says). */
  refused?: "arguments";
  /** The session the call was made in; absent for the process's own world. */
  session?: string;
}

/** An API call as `--record` writes it. */
export interface RecordedApiCall {
  api: string;
  operation: string;
  request: unknown;
  response: unknown;
  /** The session the call was made in; absent for the process's own world. */
  session?: string;
}

/** One line of a record file. */
export type RecordedCall = RecordedToolCall | RecordedApiCall;

/** The server (fake id) and contract name a caller's own naming assigns a call. */
export type ToolNamer<T> = (call: T) => { server: string; tool: string } | undefined;

/** The entity maps of a write map, tools and operations alike, by name. */
export function entityMapOf(manifest: WriteMap): Record<string, { reads: string[]; writes: string[] }> {
  return manifest.kind === "api" ? manifest.operations : manifest.tools;
}

/** Refuses an empty set of manifests: checks over no fakes would report nothing, which reads as a pass. */
export function requireManifests(manifests: WriteMaps, check: string): void {
  if (manifests === null || typeof manifests !== "object" || Object.keys(manifests).length === 0) {
    throw new Error(`[eval-simulate] ${check} needs at least one fake's manifest: with none it would report nothing, which a check reads as a pass`);
  }
}
