import type { JournalEntry, JournalFilter } from "../journal/index.js";
import type { OutsideListener, SessionHook, WorldAdmin } from "../sessions/index.js";
import type { StubUsage } from "../stubs/index.js";
import type { ApiHandler } from "./api-mount.js";
import type { FetchHandler } from "../http/index.js";
import { fakeHash } from "../../core/record/index.js";
import { rawTargetOf } from "../http/index.js";
import { sameSecret } from "../http/index.js";

/** What the host routes to: each fake's endpoints, its state and its evidence. */
export interface HostTargets {
  /** Every fake id served. */
  ids: string[];
  /** MCP endpoints by fake id. */
  mcp: Map<string, FetchHandler>;
  /** API fakes by id: their handler and the real hosts whose traffic they answer. */
  apis: Map<string, { handle: ApiHandler; hosts: readonly string[] }>;
  state(id: string): unknown;
  initialState(id: string): unknown;
  calls(filter: JournalFilter): JournalEntry[];
  stubs(id: string): StubUsage[];
  /** When set, `/<id>/admin/*` needs `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** `/sessions`, and the session a `/s/<sid>/` prefix or `EvalSimulate-Session` header picks. */
  sessions?: SessionHook;
  /** Told of a session's requests to its admin routes or to paths none of its fakes serve. */
  onOutside?: OutsideListener;
  /** The fakes answer only in a session: without one, their routes answer 404 (an eval's host, whose own world no trial may share). */
  sessionsOnly?: boolean;
  /** A session's `/models/...` requests (engine/serve/models/), when no fake of it is named `models`. */
  models?: (session: string, segments: readonly string[], request: Request) => Promise<Response>;
}

const ADMIN_ROUTES = new Set(["admin/state", "admin/initial-state", "admin/calls", "admin/stubs"]);

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(`${JSON.stringify(body)}\n`, { status, headers: { "content-type": "application/json", ...headers } });

/** The admin token, as a request's `Authorization` must carry it (compared in constant time). */
const sameToken = (given: string | null, token: string) => sameSecret(given, `Bearer ${token}`);

function adminRoute(route: string, id: string, url: URL, targets: WorldAdmin): Response | undefined {
  switch (route) {
    case "admin/state":
      // `?hash=1`: the fake's world hash (`fakeHash` of eval-simulate/verify) instead of its state.
      if (url.searchParams.get("hash") === "1") return json(200, fakeHash((targets.state(id) ?? {}) as Record<string, unknown>));
      return json(200, targets.state(id));
    case "admin/initial-state":
      return json(200, targets.initialState(id));
    case "admin/calls": {
      const q = url.searchParams;
      const filter: JournalFilter = { fake: id };
      for (const [param, key] of [
        ["tool", "name"],
        ["operation", "name"],
        ["status", "status"],
        ["since", "since"],
      ] as const) {
        const value = q.get(param);
        if (value !== null) filter[key] = value;
      }
      return json(200, { calls: targets.calls(filter) });
    }
    case "admin/stubs":
      return json(200, { stubs: targets.stubs(id) });
    default:
      return undefined;
  }
}

/** A fake's route without a session on a host that serves sessions only: as a session that does not exist. */
function noSession(path: string): Response {
  const message = "[eval-simulate] this host serves its fakes in sessions only: address one as /s/<address>/...";
  if (path.endsWith("/mcp")) return json(404, { jsonrpc: "2.0", id: null, error: { code: -32001, message } });
  return json(404, { error: "unknown_session", message });
}

const unauthorized = () =>
  json(
    401,
    { error: "unauthorized", message: "the admin and session routes need Authorization: Bearer <token>" },
    { "www-authenticate": 'Bearer realm="eval-simulate admin"' },
  );

/**
 * The host's routing: requests whose Host is an API fake's, `/health`, `/<id>/mcp`, `/<id>/...`
 * for API fakes, and the admin routes `/<id>/admin/state`,
 * `initial-state`, `calls` (the journal: `?tool=&status=&since=`) and `stubs`. With an admin
 * token, the admin routes answer 401 without it: the agent under evaluation shares the network
 * with the host and must not read the world it is judged on. Anything else is a JSON 404 that
 * names what is served. With `sessions`, `/sessions` is the session hook's, and a request a
 * session addresses (`/s/<sid>/...` or the `EvalSimulate-Session` header) is routed the same way
 * on the path after its prefix, its admin routes reading that session's world. With
 * `sessionsOnly`, the fakes answer in sessions only.
 *
 * @example const fetch = hostRoutes(targets); await fetch(new Request("http://x/health"));
 */
export function hostRoutes(targets: HostTargets): FetchHandler {
  // The real API's host names, lowercased, to the fake that answers them.
  const byHost = new Map<string, { id: string; handle: ApiHandler }>();
  for (const [id, api] of targets.apis) for (const host of api.hosts) byHost.set(host.toLowerCase(), { id, handle: api.handle });
  const refuse = (request: Request) =>
    targets.adminToken !== undefined && !sameToken(request.headers.get("authorization"), targets.adminToken) ? unauthorized() : undefined;
  return async (request) => {
    const url = new URL(request.url);
    // A session's requests are served as the process's own, from its world, below its prefix.
    const session = targets.sessions && (await targets.sessions(request, url, refuse, rawTargetOf(request)));
    if (session instanceof Response) return session;
    const world: WorldAdmin = session?.admin ?? targets;
    const prefix = session?.prefix ?? "";
    // A session serving some of the fakes: the others are not there for it.
    const serves = (id: string) => targets.ids.includes(id) && (session?.fakes === undefined || session.fakes.has(id));
    // Only a session's world is served here: the process's own would be shared by every trial.
    const closed = targets.sessionsOnly === true && !session;
    // Traffic an eval's egress forwards for a real API keeps its Host: it is that API fake's.
    const host = (request.headers.get("host") ?? "").toLowerCase();
    const byName = byHost.get(host) ?? byHost.get(host.replace(/:\d+$/, ""));
    if (byName) {
      if (closed) return noSession(url.pathname);
      if (session && !serves(byName.id)) {
        targets.onOutside?.(session.session, "unserved", request);
        return notFound(url, targets, serves);
      }
      const scheme = request.headers.get("x-forwarded-proto") ?? "https";
      return byName.handle(request, { prefix, origin: `${scheme}://${request.headers.get("host")}` });
    }
    const segments = (session?.path ?? url.pathname).split("/").filter(Boolean);
    if (segments.length === 1 && segments[0] === "health") return json(200, { ok: true });
    const [id, ...rest] = segments;
    const route = rest.join("/");
    if (id !== undefined && serves(id)) {
      const mcp = targets.mcp.get(id);
      // Only the admin routes themselves are the host's: an API's own `/admin/...` paths are its.
      const admin = ADMIN_ROUTES.has(route);
      const api = targets.apis.get(id);
      if (closed && !admin && ((route === "mcp" && mcp) || api)) return noSession(url.pathname);
      if (route === "mcp" && mcp) return mcp(request);
      if (api && !admin) return api.handle(request, { prefix: `${prefix}/${id}`, origin: url.origin });
      if (admin) {
        if (session) targets.onOutside?.(session.session, "admin", request);
        const refused = refuse(request);
        if (refused) return refused;
        if (request.method !== "GET" && request.method !== "HEAD") return json(405, { error: "method_not_allowed" }, { allow: "GET, HEAD" });
        const answered = adminRoute(route, id, url, world);
        if (answered) return answered;
      }
    }
    if (session && id === "models" && targets.models) return targets.models(session.session, rest, request);
    if (session) targets.onOutside?.(session.session, segments[0] === "sessions" ? "sessions" : "unserved", request);
    return notFound(url, targets, serves);
  };
}

/** Nothing is served here: a JSON 404 naming what is (to whoever asked: the process's fakes, or a session's). */
function notFound(url: URL, targets: HostTargets, serves: (id: string) => boolean): Response {
  return json(404, {
    error: "not_found",
    message: `nothing is served at ${url.pathname}`,
    served: targets.ids
      .filter(serves)
      .flatMap((fake) => [targets.mcp.has(fake) ? `/${fake}/mcp` : `/${fake}/...`, `/${fake}/admin/state`])
      .concat("/health"),
  });
}
