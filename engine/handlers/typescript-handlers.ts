/**
 * The TypeScript side of handlers: what a fake's `handlers` module exports and what each handler
 * receives. Kept free of runtime dependencies so a handler module loaded from another copy of
 * the package (a Recipe's node_modules) works with this engine: nothing here relies on identity.
 */

/** A tool result as the MCP protocol carries it. */
export interface ToolResult {
  content: Array<{ type: "text"; text: string } | { type: string; [key: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The context every tool handler receives beside its arguments. */
export interface ToolContext<State = Record<string, any>, World = Record<string, any>> {
  /** This fake's state: change it in place; the change is committed when the handler returns. */
  state: State;
  /** Every fake's state, read-only. */
  world: World;
  /** The clock, ISO 8601. */
  now: string;
  /** The scenario being served. */
  scenario: string;
  /** Evidence for the journal, correlated with this call. */
  log(value: unknown): void;
  /** Aborted when the call times out or the client goes away. */
  signal: AbortSignal;
  /** A successful answer, encoded in the tool's declared format. */
  answer(value: unknown): ToolResult;
  /** A text result; with `isError`, a tool error. */
  text(value: string, isError?: boolean): ToolResult;
  /** The result of a tool with an output schema: structured content and its JSON as text. */
  structured(value: Record<string, unknown>): ToolResult;
  /** The tool error "This fake does not implement <what>". */
  notImplemented(what: string): ToolResult;
  /** Ends the call as a tool error with this text; the state is left as it was. */
  fail(message: string): never;
  /** A stable UUID derived from a readable label. */
  labelId(label: string): string;
}

/** A tool handler: a plain value (encoded in the tool's answer format) or a ToolResult. */
export type ToolHandler<State = any, World = any> = (
  args: any,
  context: ToolContext<State, World>,
) => unknown | Promise<unknown>;

/** An HTTP request to an API fake, as its handler sees it. */
export interface ApiRequest {
  method: string;
  path: string;
  /** Path parameters by their names in the document (dashes and all), coerced to their types. */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Lowercased header names. */
  headers: Record<string, string>;
  body: unknown;
  /** The base URL the client used (`http://127.0.0.1:7353/github` by path, `https://api.github.com` by Host), for links. */
  baseUrl: string;
}

/** What an API handler answers. */
export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The context every API handler receives beside the request. */
export type ApiContext<State = Record<string, any>, World = Record<string, any>> = Pick<
  ToolContext<State, World>,
  "state" | "world" | "now" | "scenario" | "log" | "signal" | "fail" | "labelId"
>;

export type OperationHandler<State = any, World = any> = (
  request: ApiRequest,
  context: ApiContext<State, World>,
) => ApiResponse | Promise<ApiResponse>;

/** The mark defineHandlers leaves, found by `Symbol.for` so any copy of the package agrees. */
export const HANDLERS_MARK = Symbol.for("eval-simulate.handlers");

/**
 * A fake's handlers, by tool or operation name: the default export of its `handlers` module.
 *
 * @example
 * export default defineHandlers({
 *   "export-notes": (args, { state }) => state.notes.map((n) => n.title).join("\n"),
 * });
 */
export function defineHandlers<const T extends Record<string, ToolHandler>>(handlers: T): T {
  Object.defineProperty(handlers, HANDLERS_MARK, { value: true, enumerable: false });
  return handlers;
}

/**
 * An API fake's handlers, by operation name (operationId or `METHOD /template`): the default
 * export of its `handlers` module.
 *
 * @example
 * export default defineApiHandlers({
 *   "issues/get": (request, { state }) => ({ status: 200, body: state.issues[0] }),
 * });
 */
export function defineApiHandlers<const T extends Record<string, OperationHandler>>(handlers: T): T {
  Object.defineProperty(handlers, HANDLERS_MARK, { value: true, enumerable: false });
  return handlers;
}
