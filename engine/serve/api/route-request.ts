/**
 * Where a request to an API fake leads: its path with the fake's prefix (`/<id>`) and the
 * document's base path (`/v1.0`) taken off, routed to an operation, or the reason it is not
 * (no route, with the nearest templates; the wrong method, with what is allowed).
 */
import type { CompiledApi, CompiledOperation } from "../../author/openapi/index.js";
import { normalizePath } from "../../author/openapi/index.js";

interface Addressed {
  /** The path below the base path, as sent (percent-encoding kept). */
  path: string;
  /** The query as sent: text, or an array of texts for a repeated key. */
  query: Record<string, unknown>;
  search: URLSearchParams;
}

/** Where a request leads, with messages for the answers that are not an operation. */
export type RoutedRequest = Addressed &
  (
    | { kind: "operation"; operation: CompiledOperation; params: Record<string, string> }
    | { kind: "none"; message: string; nearest: string[] }
    | { kind: "method"; message: string; allow: string[] }
    | { kind: "malformed"; message: string }
  );

function queryOf(search: URLSearchParams): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    Object.defineProperty(query, key, { value: values.length === 1 ? values[0] : values, enumerable: true, writable: true, configurable: true });
  }
  return query;
}

/**
 * Routes a request's URL. `prefix` is `/<id>` when the client addressed the fake by path and
 * `""` when by Host.
 *
 * @example routeRequest(api, "GET", new URL("http://127.0.0.1:7353/graph/v1.0/me/messages"), "/graph");
 */
export function routeRequest(api: CompiledApi, method: string, url: URL, prefix: string): RoutedRequest {
  const search = url.searchParams;
  const raw = url.pathname;
  const below = prefix !== "" && (raw === prefix || raw.startsWith(`${prefix}/`)) ? raw.slice(prefix.length) || "/" : raw;
  const { basePath } = api;
  const underBase = basePath === "" || below === basePath || below.startsWith(`${basePath}/`);
  const path = underBase ? below.slice(basePath.length) || "/" : below;
  const addressed: Addressed = { path, query: queryOf(search), search };
  if (!underBase) {
    const nearest = api.router.nearest(normalizePath(path));
    const message = `[eval-simulate] ${api.id} serves paths under ${basePath} (its document's servers[0].url), and ${method} ${below} is not; nearest: ${nearest.join(", ") || "none"}`;
    return { ...addressed, kind: "none", message, nearest };
  }
  const match = api.router.match(method, normalizePath(path));
  if (match.kind === "operation") return { ...addressed, kind: "operation", operation: match.operation.served, params: match.params };
  if (match.kind === "malformed") return { ...addressed, kind: "malformed", message: match.message };
  const documented = match.documented
    ? ` ${match.documented.method} ${match.documented.template} is in the document, but ${api.id} does not serve it: add it under apis.${api.id}.operations.`
    : "";
  if (match.kind === "method") {
    const message = `[eval-simulate] ${method} is not allowed on ${path}; allowed: ${match.allow.join(", ")}.${documented}`;
    return { ...addressed, kind: "method", message, allow: match.allow };
  }
  const nearest = match.nearest;
  const message = `[eval-simulate] no operation of ${api.id} matches ${method} ${path}${api.operations.size === 0 ? " (it serves none)" : `; nearest: ${nearest.join(", ") || "none"}`}.${documented}`;
  return { ...addressed, kind: "none", message, nearest };
}
