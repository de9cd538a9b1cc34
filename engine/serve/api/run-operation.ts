/**
 * Running an operation's handler on a draft of the fake's state: JSONata (`$request`, its value
 * `{ status, body, headers? }`) or a TypeScript function `(request, ctx)`. What comes back is the
 * handler's answer, checked for shape, and the entity values to commit if the answer passes.
 */
import { describeJsonValueProblem, jsonValueProblem, MAX_MESSAGE_DEPTH } from "../../author/contract/index.js";
import type { ApiContext, ApiRequest, ApiResponse } from "../../author/handlers/index.js";
import { runJsonataHandler } from "../../author/handlers/index.js";
import type { StateStore } from "../runtime/index.js";
import { ToolFailure } from "../runtime/index.js";
import { labelId } from "../../author/world/index.js";
import type { CompiledApi, CompiledOperation } from "../../author/openapi/index.js";

/** The request a handler sees: the document's view of it, and the base URL the client used. */
export interface ServedApiRequest extends ApiRequest {
  /** Origin, path prefix and base path the client addressed (`http://127.0.0.1:7353/graph/v1.0`): build links on it. */
  baseUrl: string;
}

/** A handler answered something that is not `{ status, body, headers? }`. */
export class HandlerResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HandlerResponseError";
  }
}

/** `$notImplemented(what)`'s wording, which a JSONata run reports as a failed guard. */
export const NOT_IMPLEMENTED = "This fake does not implement ";

/** What the run needs beside the operation. */
export interface RunScope {
  store: StateStore;
  now: string;
  scenario: string;
  signal: AbortSignal;
  logs: unknown[];
}

/** How a handler ended: an answer with changes to commit, or `fail(message)`. */
export type HandlerOutcome = { kind: "answer"; response: ApiResponse; changes?: Record<string, unknown> } | { kind: "fail"; message: string };

/**
 * Runs the handler. Throws what the handler threw (a ToolFailure from `fail` included: the
 * caller answers it), a JsonataRuntimeError, or a HandlerResponseError for a malformed answer.
 *
 * @example const outcome = await runOperation(api, op, request, { store, now, scenario, signal, logs });
 */
export async function runOperation(api: CompiledApi, operation: CompiledOperation, request: ServedApiRequest, scope: RunScope): Promise<HandlerOutcome> {
  const { handler, writes, name } = operation.manifest;
  // JSONata cannot assign, so it reads the committed state directly; code gets a read-only view.
  const world = handler.kind === "jsonata" ? scope.store.states : scope.store.view;
  const what = `${api.id}/${name}`;
  if (handler.kind === "jsonata") {
    const ran = await runJsonataHandler(
      handler.jsonata,
      { request, state: scope.store.snapshot(api.id), world, now: scope.now, scenario: scope.scenario, labelId, log: (value) => void scope.logs.push(value) },
      { timeoutMs: api.timeoutMs, signal: scope.signal },
    );
    if (ran.kind === "fail") return { kind: "fail", message: ran.message };
    return { kind: "answer", response: asApiResponse(ran.value, what), changes: Object.keys(ran.set).length > 0 ? ran.set : undefined };
  }
  const draft = scope.store.draft(api.id, writes);
  const context: ApiContext = {
    state: draft.state,
    world,
    now: scope.now,
    scenario: scope.scenario,
    signal: scope.signal,
    log: (value) => void scope.logs.push(value),
    fail: (message) => {
      throw new ToolFailure(message);
    },
    labelId,
  };
  const value = draft.detach(await handler.fn(request, context));
  draft.detach(scope.logs);
  const changes = draft.changes();
  return { kind: "answer", response: asApiResponse(value, what), changes };
}

/**
 * A handler's value as an ApiResponse: `status` an integer from 200 to 599, `headers` text
 * (numbers are written as text, arrays joined with ", "). Throws a HandlerResponseError saying
 * what is wrong.
 *
 * @example asApiResponse({ status: 201, body: { id: 1 }, headers: { "x-count": 1 } }, "github/issues/create");
 */
export function asApiResponse(value: unknown, what: string): ApiResponse {
  const shape = "it must be { status, body, headers? } with an integer status from 200 to 599";
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HandlerResponseError(`[eval-simulate] the handler of ${what} answered ${describe(value)}; ${shape}`);
  }
  const { status, body, headers } = value as Record<string, unknown>;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 599) {
    throw new HandlerResponseError(`[eval-simulate] the handler of ${what} answered status ${describe(status)}; ${shape}`);
  }
  const extra = Object.keys(value).filter((key) => !["status", "body", "headers"].includes(key));
  if (extra.length > 0) throw new HandlerResponseError(`[eval-simulate] the handler of ${what} answered unknown keys ${extra.join(", ")}; ${shape}`);
  // JSON would send Infinity or NaN as null: what the client reads would not be what was checked.
  const unfit = jsonValueProblem(body, { maxDepth: MAX_MESSAGE_DEPTH });
  if (unfit)
    throw new HandlerResponseError(
      `[eval-simulate] the handler of ${what} answered a body JSON cannot carry: ${describeJsonValueProblem(unfit, "body")}; nothing was changed`,
    );
  if (headers === undefined || headers === null) return { status, body };
  if (typeof headers !== "object" || Array.isArray(headers))
    throw new HandlerResponseError(`[eval-simulate] the handler of ${what} answered headers ${describe(headers)}; they must be an object of texts`);
  const text: Record<string, string> = {};
  for (const [header, item] of Object.entries(headers)) {
    if (typeof item === "string") text[header] = item;
    else if (typeof item === "number" || typeof item === "boolean") text[header] = String(item);
    else if (Array.isArray(item) && item.every((part) => typeof part === "string")) text[header] = item.join(", ");
    else throw new HandlerResponseError(`[eval-simulate] the handler of ${what} answered header ${header}: ${describe(item)}; a header is text`);
  }
  return { status, body, headers: text };
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
