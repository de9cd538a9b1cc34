import type { FetchHandler } from "./http-listen.js";

/** What the host routes to: each fake's endpoints and its state. */
export interface HostTargets {
  /** MCP endpoints by fake id. */
  mcp: Map<string, FetchHandler>;
  /** The live state and the starting state of a fake, by id. */
  state(id: string): unknown;
  initialState(id: string): unknown;
  /** Every fake id served. */
  ids: string[];
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(`${JSON.stringify(body)}\n`, { status, headers: { "content-type": "application/json", ...headers } });

/**
 * The host's routing: `/health`, `/<id>/mcp`, `/<id>/admin/state`, `/<id>/admin/initial-state`.
 * Anything else is a JSON 404 that names what is served, so a misconfigured client learns why.
 *
 * @example const fetch = hostRoutes(targets); await fetch(new Request("http://x/health"));
 */
export function hostRoutes(targets: HostTargets): FetchHandler {
  return async (request) => {
    const url = new URL(request.url);
    const segments = url.pathname.split("/").filter(Boolean);
    if (segments.length === 1 && segments[0] === "health") return json(200, { ok: true });
    const [id, ...rest] = segments;
    const route = rest.join("/");
    if (id !== undefined && targets.ids.includes(id)) {
      const mcp = targets.mcp.get(id);
      if (route === "mcp" && mcp) return mcp(request);
      if (route === "admin/state" || route === "admin/initial-state") {
        if (request.method !== "GET" && request.method !== "HEAD") return json(405, { error: "method_not_allowed" }, { allow: "GET, HEAD" });
        return json(200, route === "admin/state" ? targets.state(id) : targets.initialState(id));
      }
    }
    return json(404, {
      error: "not_found",
      message: `nothing is served at ${url.pathname}`,
      served: targets.ids.flatMap((fake) => [...(targets.mcp.has(fake) ? [`/${fake}/mcp`] : []), `/${fake}/admin/state`, `/${fake}/admin/initial-state`]).concat("/health"),
    });
  };
}
