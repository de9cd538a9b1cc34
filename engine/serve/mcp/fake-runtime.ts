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

/** An MCP log level, least severe first. */
export type McpLogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** The client of one call: what a handler may send it and ask it while the call runs. */
export interface McpClient {
  /** The fake declares logging, so log messages are sent. */
  readonly logging: boolean;
  /** `notifications/message`, filtered by the level the client set. */
  log(level: McpLogLevel, data: unknown): Promise<void>;
  /** `notifications/progress`, when the request carried a progress token. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** `elicitation/create`, when this client can be asked (absent: it cannot). */
  elicit?(params: Record<string, unknown>, signal: AbortSignal): Promise<{ action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }>;
  /** `sampling/createMessage`, when this client can be asked. */
  sample?(params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** What a call carries besides its name and arguments. */
export interface McpCallExtra {
  /** Aborted when the client goes away (or cancels) before the call is answered. */
  signal: AbortSignal;
  /** The HTTP request the call came in, when the transport exposes it. */
  request?: Request;
  /** The client, to notify and ask while the call runs. */
  client?: McpClient;
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
  /**
   * Calls `onCommit` after every commit in the world `request` addresses, until the returned
   * function is called: how subscribers learn that a resource may read differently.
   */
  watch?(request: Request | undefined, onCommit: () => void): () => void;
  /** The captured prompts listed by `prompts/list` (with `getPrompt`). */
  prompts?: ReadonlyArray<Record<string, unknown>>;
  /** Answers `prompts/get`; throws `McpRequestError` for an unknown prompt or missing arguments. */
  getPrompt?(name: string, args: Record<string, string> | undefined, extra: McpCallExtra): Promise<Record<string, unknown>>;
  /** Answers `completion/complete`; when set, the fake declares the completions capability. */
  complete?(
    ref: { type: string; name?: string; uri?: string },
    argument: { name: string; value: string },
    context: Record<string, string>,
    extra: McpCallExtra,
  ): Promise<{ values: string[]; total?: number; hasMore?: boolean }>;
  /**
   * The names of the tools listed now in the world `request` addresses, for a fake whose tool
   * list changes; when set, `tools/list` lists only those and declares `listChanged`.
   */
  listed?(request: Request | undefined): ReadonlySet<string>;
  /** Declares the logging capability (`logging/setLevel`; handlers' log messages are sent). */
  logging?: boolean;
  /** Serves 2025-era clients with MCP sessions, so the server can ask them and push to subscribers. */
  sessions?: boolean;
  /** Items per page of every list; all on one page when unset. */
  pageSize?: number;
}

/**
 * A request the fake refuses with a JSON-RPC error (-32602 by default), e.g. an unknown prompt.
 *
 * @example throw new McpRequestError("Prompt nope not found");
 */
export class McpRequestError extends Error {
  override name = "McpRequestError";
  constructor(
    message: string,
    readonly code = -32602,
  ) {
    super(message);
  }
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
