/**
 * What the MCP stage needs from a compiled fake: its identity, its captured tools and a way to run
 * a call. The host builds one per fake; `createMcpEndpoint` serves it.
 */

/** Server identity sent in `initialize` (2025 era) and stamped on results (2026 era). */
export interface McpServerInfo {
  name: string;
  version: string;
  title?: string;
}

/** What a call carries besides its name and arguments. */
export interface McpCallExtra {
  /** Aborted when the client goes away (or cancels) before the call is answered. */
  signal: AbortSignal;
  /** The HTTP request the call came in, when the transport exposes it. */
  request?: Request;
}

/** One MCP fake as the endpoint serves it. */
export interface McpFakeRuntime {
  id: string;
  /** Identity for `initialize` and `server/discover`; `{ name: id, version: "1.0.0" }` by default. */
  serverInfo?: McpServerInfo;
  /** Sent in `initialize` and `server/discover` when set. */
  instructions?: string;
  /** The captured tools, in captured order, sent as they are (a JSON snapshot is taken at start-up). */
  tools: ReadonlyArray<Record<string, unknown>>;
  /**
   * Runs one call through the host's pipeline (validation, defaults, stub or handler, state) and
   * returns a CallToolResult, possibly with `isError: true`. Throws `ToolNotFoundError` for a
   * tool the fake does not serve; any other throw is answered as a tool error.
   */
  callTool(name: string, args: Record<string, unknown> | undefined, extra: McpCallExtra): Promise<Record<string, unknown>>;
  /** The captured resources listed by `resources/list` (with `readResource`). */
  resources?: ReadonlyArray<Record<string, unknown>>;
  /** The captured resource templates listed by `resources/templates/list`. */
  resourceTemplates?: ReadonlyArray<Record<string, unknown>>;
  /**
   * Answers `resources/read`; when set, the fake declares the resources capability. Returns
   * undefined for a URI it does not serve (answered -32002 "Resource <uri> not found").
   */
  readResource?(uri: string, extra: McpCallExtra): Promise<Record<string, unknown> | undefined>;
}

/**
 * Thrown by `McpFakeRuntime.callTool` for a tool the fake does not serve; the endpoint answers it
 * with the SDK's JSON-RPC error -32602 `Tool <name> not found`.
 *
 * @example
 * if (!entries.has(name)) throw new ToolNotFoundError(name, fake.id);
 */
export class ToolNotFoundError extends Error {
  override name = "ToolNotFoundError";
  readonly code = "E_TOOL_NOT_FOUND";
  /** The tool that was asked for. */
  readonly tool: string;

  constructor(tool: string, fake?: string) {
    const where = fake === undefined ? "" : ` by fake ${JSON.stringify(fake)}`;
    super(`[eval-simulate] tool ${JSON.stringify(tool)} is not served${where}`);
    this.tool = tool;
  }
}

/**
 * The identity a fake's MCP server announces: its own, or its id at version 1.0.0.
 *
 * @example serverInfoOf({ id: "notes", tools: [], callTool }) // { name: "notes", version: "1.0.0" }
 */
export function serverInfoOf(fake: Pick<McpFakeRuntime, "id" | "serverInfo">): McpServerInfo {
  return fake.serverInfo ?? { name: fake.id, version: "1.0.0" };
}
