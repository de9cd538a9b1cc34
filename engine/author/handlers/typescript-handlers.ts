/**
 * The TypeScript side of handlers: what a fake's `handlers` module exports and what each handler
 * receives. Kept free of runtime dependencies so a handler module loaded from another copy of
 * the package (a Recipe's node_modules) works with this engine: nothing here relies on identity.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: a handler's arguments, state and world default to `any` so a user's untyped handler compiles; typed ones name their own (`eval-simulate types`).
import { ToolFailure } from "./tool-failure.js";

/** A tool result as the MCP protocol carries it. */
export interface ToolResult {
  content: Array<{ type: "text"; text: string } | { type: string; [key: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** An MCP log level, least severe first. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** The client's answer to an elicitation. */
export interface ElicitAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
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
  /**
   * Evidence for the journal, correlated with this call; on a fake that declares `logging: true`
   * also sent to the client as `notifications/message` at `level` (`info` by default).
   */
  log(value: unknown, level?: LogLevel): void;
  /**
   * Progress of this call, sent to the client as `notifications/progress` when its request asked
   * for progress (a `progressToken`); kept in the journal either way.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Asks the client for the user's input (`elicitation/create`: `message` and a flat
   * `requestedSchema`) and resolves with its answer (`{ action: "accept" | "decline" | "cancel", content? }`).
   * Needs a client that can be asked: 2025-era, on a fake declared with `sessions: true`, or stdio.
   */
  elicit(params: { message: string; requestedSchema: Record<string, unknown>; [key: string]: unknown }): Promise<ElicitAnswer>;
  /** Asks the client to sample its model (`sampling/createMessage`) and resolves with the message it answers; asked as `elicit` is. */
  sample(params: { messages: Array<Record<string, unknown>>; maxTokens: number; [key: string]: unknown }): Promise<Record<string, unknown>>;
  /** Aborted when the call times out or the client goes away. */
  signal: AbortSignal;
  /** A successful answer, encoded in the tool's declared format. */
  answer(value: unknown): ToolResult;
  /** A text result; with `isError`, a tool error. */
  text(value: string, isError?: boolean): ToolResult;
  /**
   * The result of a tool with an output schema: structured content and its JSON as text;
   * `text: "json-pretty"` indents it by 2, and any other string is sent as the text itself.
   */
  structured(value: Record<string, unknown>, options?: { text?: "json" | "json-pretty" | (string & {}) }): ToolResult;
  /** The tool error "This fake does not implement <what>". */
  notImplemented(what: string): ToolResult;
  /** Ends the call as a tool error with this text; the state is left as it was. */
  fail(message: string): never;
  /** A stable UUID derived from a readable label. */
  labelId(label: string): string;
}

/** A tool handler: a plain value (encoded in the tool's answer format) or a ToolResult. */
export type ToolHandler<State = any, World = any> = (args: any, context: ToolContext<State, World>) => unknown | Promise<unknown>;

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
  "state" | "world" | "now" | "scenario" | "signal" | "fail" | "labelId"
> & {
  /** Evidence for the journal, correlated with this call. */
  log(value: unknown): void;
};

export type OperationHandler<State = any, World = any> = (request: ApiRequest, context: ApiContext<State, World>) => ApiResponse | Promise<ApiResponse>;

/** The mark defineHandlers leaves, found by `Symbol.for` so any copy of the package agrees. */
export const HANDLERS_MARK = Symbol.for("eval-simulate.handlers");

/** What `eval-simulate types` generates for an MCP fake (`<Fake>Fake`): the types its handlers see. */
export interface FakeTypes {
  state: object;
  args: object;
  answers: object;
  world: object;
}

/** What `eval-simulate types` generates for an API fake (`<Fake>Api`). */
export interface ApiTypes {
  state: object;
  requests: object;
  responses: object;
  world: object;
}

type Awaitable<T> = T | Promise<T>;

/** A fake without generated types: any tool, any arguments and state, any answer. */
export interface UntypedFake {
  state: any;
  args: Record<string, any>;
  answers: Record<string, any>;
  world: any;
}

/** An API fake without generated types. */
export interface UntypedApi {
  state: any;
  requests: Record<string, { params: Record<string, any>; query: Record<string, any>; body: any }>;
  responses: Record<string, ApiResponse>;
  world: any;
}

/** Handlers checked against a fake's generated types: arguments, state and answers by tool. */
export type TypedToolHandlers<F extends FakeTypes> = {
  [Tool in keyof F["args"]]?: (
    args: F["args"][Tool],
    context: ToolContext<F["state"], F["world"]>,
  ) => Awaitable<(Tool extends keyof F["answers"] ? F["answers"][Tool] : unknown) | ToolResult>;
};

/** API handlers checked against a fake's generated types: each operation's request and responses. */
export type TypedOperationHandlers<F extends ApiTypes> = {
  [Operation in keyof F["requests"]]?: (
    request: Omit<ApiRequest, "params" | "query" | "body"> & F["requests"][Operation],
    context: ApiContext<F["state"], F["world"]>,
  ) => Awaitable<Operation extends keyof F["responses"] ? F["responses"][Operation] : ApiResponse>;
};

/**
 * A fake's handlers, by tool or operation name: the default export of its `handlers` module.
 * Give it the fake's generated types (`eval-simulate types`) and `tsc` checks every handler's
 * arguments, state and answer.
 *
 * @example
 * import type { NotesFake } from "../../fakes.js";
 * export default defineHandlers<NotesFake>({
 *   "export-notes": (args, { state }) => state.notes.map((n) => n.title).join("\n"),
 * });
 */
export function defineHandlers<F extends FakeTypes = UntypedFake, const H extends TypedToolHandlers<F> = TypedToolHandlers<F>>(handlers: H): H {
  Object.defineProperty(handlers, HANDLERS_MARK, { value: true, enumerable: false });
  return handlers;
}

/**
 * An API fake's handlers, by operation name (operationId or `METHOD /template`): the default
 * export of its `handlers` module; with the fake's generated types, checked by `tsc`.
 *
 * @example
 * export default defineApiHandlers<GithubApi>({
 *   "issues/get": (request, { state }) => ({ status: 200, body: state.issues[0] }),
 * });
 */
export function defineApiHandlers<F extends ApiTypes = UntypedApi, const H extends TypedOperationHandlers<F> = TypedOperationHandlers<F>>(handlers: H): H {
  Object.defineProperty(handlers, HANDLERS_MARK, { value: true, enumerable: false });
  return handlers;
}

/**
 * Ends the handler's call as a tool error with this text, changing nothing: the context's `fail`,
 * as a function of its own. TypeScript narrows after a call returning `never` only when the
 * function's name is declared with its type, which an import is and a destructured `{ fail }` is
 * not: `if (!task) fail("no task")` narrows `task` with this one; with the context's, write
 * `return fail(…)` or `task ?? fail(…)`.
 *
 * @example
 * import { defineHandlers, fail } from "eval-simulate";
 * export default defineHandlers<TasksFake>({
 *   get_task: ({ id }, { state }) => {
 *     const task = state.tasks.find((t) => t.id === id);
 *     if (!task) fail(`No task ${id}`);
 *     return task.title;
 *   },
 * });
 */
export function fail(message: string): never {
  throw new ToolFailure(message);
}
