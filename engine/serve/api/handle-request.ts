/**
 * One HTTP request to an API fake through every step of SPEC §8: routed by path template and
 * method, its parameters and body validated against the document, the handler run under the
 * fake's time limit on a draft of the state, its answer checked against the document's response
 * for its status, and the state committed. Any failure answers with the fake's own error and
 * changes nothing. Requests to one fake run one at a time, in arrival order.
 */
import type { Commit, StateStore } from "../runtime/index.js";
import type { FaultSet } from "../stubs/index.js";
import { type StubSet, stubDelay } from "../stubs/index.js";
import { describeHandlerError, stateProblem, worldSizeProblem } from "../runtime/index.js";
import { HandlerTimeoutError, withTimeout } from "../runtime/index.js";
import { isToolFailure } from "../runtime/index.js";
import { JsonataRuntimeError } from "../../author/handlers/index.js";
import { errorAnswer, handlerAnswer, toResponse, type SentResponse } from "./api-answer.js";
import type { CompiledApi, CompiledOperation } from "../../author/openapi/index.js";
import { linkRewriter } from "./link-rewrite.js";
import { readParameters } from "../../author/openapi/index.js";
import { readBody } from "../../author/openapi/index.js";
import { checkResponse } from "../../author/openapi/index.js";
import { HandlerResponseError, NOT_IMPLEMENTED, runOperation, type ServedApiRequest } from "./run-operation.js";
import { routeRequest } from "./route-request.js";

/** What the pipeline needs beside the fake: the state, the clock, the scenario (RuntimeScope's shape). */
export interface ApiScope {
  store: StateStore;
  now: string;
  scenario: string;
  stubs?: StubSet;
  faults?: FaultSet;
}

/** The header a faulted response carries to the node adapter, which then fails the connection its way. */
export const FAULT_HEADER = "x-eval-simulate-fault";

/** How the client addressed the fake: by path (`prefix` `/<id>`) or by Host (`prefix` `""`). */
export interface ApiBase {
  prefix: string;
  /** `http://127.0.0.1:7353`, or `https://api.github.com` for a request by Host. */
  origin: string;
}

/** How one request went, for the journal and the record. */
export interface ApiCallOutcome {
  api: string;
  /** `METHOD /template`, or `""` when no operation matched. */
  operation: string;
  /** operationId or `METHOD /template`; `""` when no operation matched. */
  operationName: string;
  matched: boolean;
  /** As the handler saw it (coerced, defaults filled); as sent when it never got that far. */
  request: { method: string; path: string; params: Record<string, unknown>; query: Record<string, unknown>; headers: Record<string, string>; body: unknown };
  response: SentResponse;
  /** True when the request's state change was committed. */
  committed: boolean;
  logs: unknown[];
  startedAt: string;
  durationMs: number;
  /** The stub that answered, when one did. */
  stub?: string;
  /** The HTTP fault injected instead of an answer, when one was. */
  fault?: string;
  /** The fake's own error message, when it answered with one. */
  error?: string;
  /** What the request committed, when it did: the record's `changes` are made from it. */
  commit?: Commit;
}

/**
 * Serves one request to an API fake. Never throws for anything a client or handler does: every
 * failure is an answer (400, 404, 405, 415, 422, 500, 501, 504) whose body names the problem.
 * `witness` (the host's evidence) is given every outcome once, and a committing request's before
 * its commit, so a run killed at any moment never holds a committed write it has no evidence of.
 *
 * @example
 * const { response, outcome } = await handleApiRequest(scope, api, request, { prefix: "/github", origin: "http://127.0.0.1:7353" });
 */
export async function handleApiRequest(
  scope: ApiScope,
  api: CompiledApi,
  request: Request,
  base: ApiBase,
  witness?: (outcome: ApiCallOutcome) => void,
): Promise<{ response: Response; outcome: ApiCallOutcome }> {
  const started = Date.now();
  const method = request.method.toUpperCase();
  const logs: unknown[] = [];
  const clientBase = base.origin.replace(/\/+$/, "") + base.prefix;
  const route = routeRequest(api, method, new URL(request.url), base.prefix);
  const text = method === "GET" || method === "HEAD" ? "" : await request.text().catch(() => "");
  const seen: ApiCallOutcome["request"] = {
    method,
    path: route.path,
    params: {},
    query: route.query,
    headers: headersOf(request.headers),
    body: text === "" ? null : lenient(text),
  };
  let operation: CompiledOperation | undefined;
  let committed = false;
  let stub: string | undefined;
  let fault: string | undefined;
  let commit: Commit | undefined;
  const finish = (sent: SentResponse, error?: string, response = toResponse(sent, method)) => {
    const outcome: ApiCallOutcome = {
      api: api.id,
      operation: operation?.key ?? "",
      operationName: operation?.manifest.name ?? "",
      matched: operation !== undefined,
      request: seen,
      response: sent,
      committed,
      logs,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      ...(error !== undefined ? { error } : {}),
      ...(stub !== undefined ? { stub } : {}),
      ...(fault !== undefined ? { fault } : {}),
      ...(commit !== undefined ? { commit } : {}),
    };
    witness?.(outcome);
    return { response, outcome };
  };
  const fail = (code: Parameters<typeof errorAnswer>[0], message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    finish(errorAnswer(code, message, details, headers), message);

  if (route.kind === "none") return fail("no_route", route.message, { matched: false, nearest: route.nearest });
  if (route.kind === "method") return fail("method_not_allowed", route.message, { matched: false, allow: route.allow }, { allow: route.allow.join(", ") });
  if (route.kind === "malformed") return fail("bad_request", `[eval-simulate] ${route.message}`, { problems: [{ in: "path", message: route.message }] });
  operation = route.operation;
  const label = `${method} ${route.path} (${operation.key})`;

  const read = readParameters(operation.parameters, route.params, route.search, request.headers);
  const body = readBody(operation.body, text, request.headers.get("content-type"));
  if (body.kind === "unsupported") {
    const message = `[eval-simulate] ${label} takes ${body.supported.join(", ")}, not ${body.mediaType}; send Content-Type: ${body.supported[0]}`;
    return fail("unsupported_media_type", message, { supported: body.supported });
  }
  const served: ServedApiRequest = {
    method,
    path: route.path,
    params: read.params,
    query: read.query,
    headers: read.headers,
    body: body.body,
    baseUrl: clientBase + api.basePath,
  };
  Object.assign(seen, { params: read.params, query: read.query, headers: read.headers, body: body.body });
  const problems = [...read.problems, ...body.problems];
  if (problems.length > 0) {
    const list = problems.map((p) => `${p.in}${p.name !== undefined ? ` ${p.name}` : ""}${p.path ? ` ${p.path}` : ""} ${p.message}`).join("; ");
    return fail("bad_request", `[eval-simulate] ${label}: ${problems.length === 1 ? "1 problem" : `${problems.length} problems`}: ${list}`, { problems });
  }

  const what = `${api.id}/${operation.manifest.name}`;
  const rewrite = linkRewriter(api.realOrigins, clientBase);
  const chosen = operation;
  const names = [operation.manifest.name, operation.key];
  const effect = scope.faults?.effect(api.id, names);
  if (effect?.latencyMs) await stubDelay(effect.latencyMs, request.signal);
  if (effect?.http) {
    fault = effect.http;
    return finish(
      { status: 200, headers: {}, body: null },
      `fault: ${effect.http}`,
      new Response(null, { status: 200, headers: { [FAULT_HEADER]: effect.http } }),
    );
  }
  // Stubs are chosen in arrival order, after validation, on the request as the handler would see it.
  const choice = scope.stubs?.choose(api.id, names, { params: served.params, query: served.query, headers: served.headers, body: served.body });
  if (choice) {
    stub = choice.stub.id;
    const { outcome } = choice;
    if (outcome.delayMs) await stubDelay(outcome.delayMs, request.signal);
    if (outcome.error !== undefined) return fail("stubbed_error", outcome.error);
    if (outcome.status !== undefined || outcome.answer !== undefined) {
      const answer = { status: outcome.status ?? 200, body: outcome.status !== undefined ? outcome.body : outcome.answer, headers: outcome.headers };
      const checked = checkResponse(
        chosen.responses,
        { operation: chosen.key, handler: `stub "${stub}" of ${what}` },
        answer.status,
        contentTypeOf(answer.headers),
        answer.body,
      );
      if ("violation" in checked) {
        const { error, message, ...details } = checked.violation;
        return fail(error, message, details);
      }
      const sent = handlerAnswer(answer, checked.contentType, rewrite);
      return finish(sent, undefined, toResponse(sent, method));
    }
  }
  return scope.store.serialize(
    api.id,
    async () => {
      const controller = new AbortController();
      const onAbort = () => controller.abort(request.signal.reason);
      request.signal.addEventListener("abort", onAbort, { once: true });
      try {
        // A client that went away while the request waited its turn gets nothing run for it.
        if (request.signal.aborted) return fail("handler_error", "[eval-simulate] the client went away before the request ran; nothing was changed");
        const run = runOperation(api, chosen, served, { ...scope, signal: controller.signal, logs });
        const ran = await withTimeout(run, api.timeoutMs, controller, what);
        if (ran.kind === "fail") {
          if (ran.message.startsWith(NOT_IMPLEMENTED)) return fail("not_implemented", ran.message);
          return fail("refused", ran.message);
        }
        const checked = checkResponse(
          chosen.responses,
          { operation: chosen.key, handler: what },
          ran.response.status,
          contentTypeOf(ran.response.headers),
          ran.response.body,
        );
        if ("violation" in checked) {
          const { error, message, ...details } = checked.violation;
          return fail(error, `${message}; nothing was changed`, details);
        }
        const broken = ran.changes && stateProblem(api.entities, what, ran.changes, scope.store.states[api.id]);
        if (broken) return fail("state_schema", broken);
        const sent = handlerAnswer(ran.response, checked.contentType, rewrite);
        let response: Response;
        try {
          response = toResponse(sent, method);
        } catch (failure) {
          return fail(
            "handler_response",
            `[eval-simulate] the handler of ${what} answered a header HTTP cannot send: ${(failure as Error).message}; nothing was changed`,
          );
        }
        const over = ran.changes && scope.store.overLimit(api.id, ran.changes);
        if (over) return fail("world_too_large", worldSizeProblem(what, over));
        // The evidence (with the commit it is about to make) is kept before the commit, and the
        // state file after it: see `witness`.
        if (ran.changes) commit = scope.store.stage(api.id, ran.changes);
        committed = ran.changes !== undefined;
        const done = finish(sent, undefined, response);
        if (commit) scope.store.commit(api.id, ran.changes!, commit);
        return done;
      } catch (error) {
        if (isToolFailure(error)) return fail("refused", error.message);
        if (error instanceof HandlerTimeoutError || (error instanceof JsonataRuntimeError && error.code === "E_HANDLER_TIMEOUT"))
          return fail("handler_timeout", error.message);
        if (error instanceof HandlerResponseError) return fail("handler_response", error.message);
        return fail("handler_error", describeHandlerError(error, what, chosen.manifest.writes, "operation"));
      } finally {
        request.signal.removeEventListener("abort", onAbort);
      }
    },
    chosen.manifest.writes.length > 0,
  );
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => void (out[name] = value));
  return out;
}

function contentTypeOf(headers: Record<string, string> | undefined): string | undefined {
  return Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "content-type")?.[1];
}

function lenient(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
