/**
 * `serve --inspect`: the viewer's page in live mode at `/_inspect`, showing each world as it runs
 * (a timeline of calls, the state and its diff against the start, stub use), and the JSON it polls. Behind the admin
 * token when one is set: the token may come as `Authorization: Bearer`, or once as `?token=`,
 * which is exchanged for an HttpOnly cookie scoped to `/_inspect` (so the page's own requests
 * carry it) by a redirect to the same address without it: the token stays out of the address
 * bar and the history, and every answer says `Referrer-Policy: no-referrer`.
 */
import { statSync } from "node:fs";
import type { FetchHandler } from "../http/index.js";
import { sameSecret } from "../http/index.js";
import type { JournalEntry, JournalFilter } from "../journal/index.js";
import type { StubUsage } from "../stubs/index.js";
import { VIEWER_ASSETS, VIEWER_CSP, type ViewerAsset, viewerAsset, viewerPage } from "./viewer-assets.js";
import { diffEntities } from "./world-diff.js";

/** One world the inspector can show: the process's own, or (with sessions) a session's. */
export interface InspectedWorld {
  id: string;
  scenario: string;
  clock: string;
  fakes: Array<{ id: string; kind: "mcp" | "api" }>;
  state(fake: string): unknown;
  initialState(fake: string): unknown;
  calls(filter: JournalFilter): JournalEntry[];
  stubs(): StubUsage[];
}

export interface InspectOptions {
  /** The worlds to list, the process's own first. */
  worlds(): InspectedWorld[];
  adminToken?: string;
  /** An eval run's results (`eval --out`, NDJSON): the page shows its pass rates per case. */
  results?: string;
  /**
   * Reads `results` into the panel's per-case rows when asked (the run may still be writing it).
   * Handed in from above (the CLI gives the eval runner's summary), since serving imports nothing
   * of the eval layer.
   */
  readResults?: (file: string) => Promise<unknown>;
}

const COOKIE = "eval_simulate_inspect";
/** On every answer: nothing is cached, and no address of the inspector leaves it as a `Referer`. */
const PRIVATE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(`${JSON.stringify(body)}\n`, { status, headers: { "content-type": "application/json", ...PRIVATE, ...headers } });

/** The request's path and query without its `token` parameters, the other parameters as they were sent. */
function withoutToken(url: URL): string {
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((part) => part !== "" && !new URLSearchParams(part).has("token"));
  return kept.length === 0 ? url.pathname : `${url.pathname}?${kept.join("&")}`;
}

function tokenOf(request: Request, url: URL): string | undefined {
  const bearer = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  if (bearer) return bearer;
  const query = url.searchParams.get("token");
  if (query) return query;
  const cookie = (request.headers.get("cookie") ?? "").split(/;\s*/).find((c) => c.startsWith(`${COOKIE}=`));
  return cookie ? decodeURIComponent(cookie.slice(COOKIE.length + 1)) : undefined;
}

/** A call as the timeline lists it: the journal entry with its values cut to a preview. */
/** One call as the live page's timeline shows it: its snapshots cut to a preview. */
export type TimelineCall = ReturnType<typeof timelineEntry>;

function timelineEntry(entry: JournalEntry) {
  const preview = (snapshot: { text: string; truncated?: boolean } | undefined) =>
    snapshot === undefined ? "" : snapshot.text.length > 2000 ? `${snapshot.text.slice(0, 2000)}…` : snapshot.text;
  return {
    seq: entry.seq,
    fake: entry.fake,
    name: entry.name,
    status: entry.status,
    startedAt: entry.startedAt,
    durationMs: entry.durationMs,
    stub: entry.stub,
    committed: entry.committed,
    input: preview(entry.input),
    output: preview(entry.output),
    error: entry.error,
  };
}

/**
 * The host with the inspector in front: `/_inspect` (the page), `/_inspect/worlds.json`,
 * `/_inspect/world.json?world=&since=` (calls after `since`, each fake's diff, stub use) and
 * `/_inspect/state.json?world=&fake=` (one fake's whole state and initial state), and with a
 * results file, `/_inspect/results.json` (an eval run's pass rates per case).
 *
 * @example const fetch = withInspector(hostFetch, { worlds: () => [world], adminToken });
 */
export function withInspector(host: FetchHandler, options: InspectOptions): FetchHandler {
  // The page polls the panel on the fakes' own port: the file is read again only when it changed.
  let panel: { stamp: string; value: unknown } | undefined;
  const readPanel = async (file: string, read: (file: string) => Promise<unknown>): Promise<unknown> => {
    let stamp: string | undefined;
    try {
      const { size, mtimeMs, ino } = statSync(file);
      stamp = `${ino}:${size}:${mtimeMs}`;
    } catch {
      // Unreadable: the reader says why.
    }
    if (stamp !== undefined && panel?.stamp === stamp) return panel.value;
    const value = await read(file);
    panel = stamp === undefined ? undefined : { stamp, value };
    return value;
  };
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/_inspect" && !url.pathname.startsWith("/_inspect/")) return host(request);
    if (request.method !== "GET" && request.method !== "HEAD") return json(405, { error: "method_not_allowed" }, { allow: "GET, HEAD" });
    if (options.adminToken !== undefined) {
      const token = tokenOf(request, url);
      if (token === undefined || !sameSecret(token, options.adminToken)) {
        return json(
          401,
          { error: "unauthorized", message: "the inspector needs the admin token: open /_inspect?token=<token>" },
          { "www-authenticate": 'Bearer realm="eval-simulate admin"' },
        );
      }
    }
    if (url.searchParams.has("token")) {
      // 303: the browser follows with a GET of the clean address, which the cookie now opens.
      const cookie: Record<string, string> =
        options.adminToken === undefined
          ? {}
          : { "set-cookie": `${COOKIE}=${encodeURIComponent(options.adminToken)}; Path=/_inspect; HttpOnly; SameSite=Strict` };
      return new Response(null, { status: 303, headers: { location: withoutToken(url), ...PRIVATE, ...cookie } });
    }
    const worlds = options.worlds();
    const world = worlds.find((w) => w.id === (url.searchParams.get("world") ?? worlds[0]?.id));
    switch (url.pathname.replace(/\/$/, "")) {
      case "/_inspect":
        return new Response(viewerPage({ mode: "live", base: "/_inspect/" }), {
          headers: { "content-type": "text/html; charset=utf-8", ...PRIVATE, "x-frame-options": "DENY", "content-security-policy": VIEWER_CSP },
        });
      case "/_inspect/viewer.js":
      case "/_inspect/viewer.css": {
        const name = url.pathname.slice("/_inspect/".length) as ViewerAsset;
        return new Response(viewerAsset(name), { headers: { "content-type": VIEWER_ASSETS[name], ...PRIVATE } });
      }
      case "/_inspect/worlds.json":
        return json(200, { worlds: worlds.map((w) => ({ id: w.id, scenario: w.scenario, clock: w.clock, fakes: w.fakes })) });
      case "/_inspect/world.json": {
        if (!world) return json(404, { error: "not_found", message: `no world "${url.searchParams.get("world")}"` });
        const since = url.searchParams.get("since") ?? "0";
        return json(200, {
          id: world.id,
          scenario: world.scenario,
          clock: world.clock,
          calls: world.calls({ since }).map(timelineEntry),
          fakes: world.fakes.map((fake) => ({ ...fake, entities: diffEntities(world.initialState(fake.id), world.state(fake.id)) })),
          stubs: world.stubs(),
        });
      }
      case "/_inspect/results.json":
        if (options.results === undefined) return json(200, { results: null });
        try {
          if (options.readResults === undefined)
            return json(200, { results: null, error: "this server was started without a results reader (eval-simulate serve gives one)" });
          return json(200, { results: await readPanel(options.results, options.readResults) });
        } catch (error) {
          return json(200, { results: null, error: `cannot read ${options.results}: ${(error as Error).message}` });
        }
      case "/_inspect/state.json": {
        const fake = url.searchParams.get("fake") ?? "";
        if (!world?.fakes.some((f) => f.id === fake)) return json(404, { error: "not_found", message: `no fake "${fake}" in this world` });
        return json(200, { fake, state: world.state(fake), initial: world.initialState(fake) });
      }
      default:
        return json(404, { error: "not_found", message: `nothing is served at ${url.pathname}` });
    }
  };
}
