/**
 * A server span per HTTP request an API fake answers, after the HTTP semantic conventions: named
 * `{http.request.method} {http.route}` (`GET /repos/{owner}/{repo}`), kind SERVER, continuing the
 * request's `traceparent` header, with the fake's own account (operation, commit, stub, fault).
 */
import { sessionIdOf, splitAddress } from "../sessions/index.js";
import { tracer } from "./trace-span.js";

/** What the API pipeline tells of one answered request (`ApiCallOutcome`'s shape). */
export interface ApiCallNote {
  /** `METHOD /template`, or `""` when no operation matched. */
  operation: string;
  operationName: string;
  response: { status: number };
  committed: boolean;
  commit?: { seq: number };
  stub?: string;
  fault?: string;
  error?: string;
}

/**
 * Serves one API request inside a server span; with tracing off it only runs `serve`.
 *
 * @example const { response } = await traceApiRequest("github", request, () => handleApiRequest(scope, api, request, base));
 */
export async function traceApiRequest<T extends { response: Response; outcome: ApiCallNote }>(
  fake: string,
  request: Request,
  serve: () => Promise<T>,
): Promise<T> {
  if (!tracer().on) return serve();
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const address = sessionIdOf(request);
  const session = address === undefined ? undefined : splitAddress(address).sid;
  // A session's secret is in its path (`/s/<sid>~<secret>/…`): the span names the session only.
  const path =
    session !== undefined && url.pathname.startsWith("/s/") ? url.pathname.replace(/^\/s\/[^/]*/, `/s/${encodeURIComponent(session)}`) : url.pathname;
  const parent = request.headers.get("traceparent") ?? undefined;
  const tracestate = request.headers.get("tracestate") ?? undefined;
  const span = tracer().start(method, {
    kind: "server",
    ...(parent !== undefined ? { parent } : {}),
    ...(tracestate !== undefined ? { tracestate } : {}),
    attributes: {
      "http.request.method": method,
      "url.path": path,
      "url.scheme": url.protocol.replace(/:$/, ""),
      "server.address": url.hostname,
      "server.port": url.port === "" ? undefined : Number(url.port),
      "user_agent.original": request.headers.get("user-agent") ?? undefined,
      "network.protocol.name": "http",
      "eval_simulate.fake.id": fake,
      "eval_simulate.session.id": session,
    },
  });
  try {
    const served = await serve();
    const { outcome } = served;
    const route = outcome.operation === "" ? undefined : outcome.operation.slice(outcome.operation.indexOf(" ") + 1);
    if (route !== undefined) span.rename(`${method} ${route}`);
    const status = outcome.response.status;
    span.set({
      "http.route": route,
      "http.response.status_code": status,
      "eval_simulate.operation": outcome.operationName || undefined,
      "eval_simulate.wrote": outcome.committed,
      "eval_simulate.commit.seq": outcome.commit?.seq,
      "eval_simulate.stub": outcome.stub,
      "eval_simulate.fault": outcome.fault,
      "eval_simulate.error": outcome.error,
    });
    // A server's span fails on 5xx only (a 4xx is the client's error), and on an injected fault.
    if (outcome.fault !== undefined) span.fail("fault", `fault injected: ${outcome.fault}`);
    else if (status >= 500) span.fail(String(status), outcome.error);
    return served;
  } catch (error) {
    span.fail((error as Error).name || "Error", (error as Error).message);
    throw error;
  } finally {
    span.end();
  }
}
