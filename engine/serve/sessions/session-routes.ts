import type { JournalEntry, JournalFilter } from "../journal/index.js";
import type { StubUsage } from "../stubs/index.js";
import { WorldError } from "../../author/world/index.js";
import { SESSION_HEADER, sessionPath, splitAddress } from "./session-address.js";
import { SessionLimitError, SessionOptionsError, UnknownSessionError } from "./session-errors.js";
import type { SessionOptions, SessionRecord, SessionRegistry, SessionWorld } from "./session-registry.js";

/** What the admin routes read from a world: the process's own, or a session's. */
export interface WorldAdmin {
  state(id: string): unknown;
  initialState(id: string): unknown;
  calls(filter: JournalFilter): JournalEntry[];
  stubs(id: string): StubUsage[];
}

/** A request addressed to a session: its path prefix (`/s/<address>`, or `""` by header), the path after it, its world, its id. */
export interface SessionRoute {
  prefix: string;
  path: string;
  admin: WorldAdmin;
  session: string;
  /** The only fakes it serves, when it serves some of the host's. */
  fakes?: ReadonlySet<string>;
}

/**
 * Where a request that carried a session's address tried to go outside it: the session routes,
 * the admin routes, another session's address, a path no fake of the session serves, or a path
 * whose dot segments led out of its prefix.
 */
export type OutsideKind = "sessions" | "admin" | "other-session" | "unserved" | "traversal";

/** Told of each request that carried a session's address (its path prefix or header) and reached outside it. */
export type OutsideListener = (session: string, kind: OutsideKind, request: Request) => void;

/**
 * The host's session hook: a `/sessions` answer, a request's session, or undefined for the
 * process's own world. `raw` is the request's target as the client sent it, before its dot
 * segments were resolved.
 */
export type SessionHook = (
  request: Request,
  url: URL,
  refuse: (request: Request) => Response | undefined,
  raw?: string,
) => Promise<Response | SessionRoute | undefined>;

/** The fakes a session serves: MCP fake ids, and each API fake's base path. */
export interface Served {
  mcp: readonly string[];
  apis: Readonly<Record<string, string>>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(`${JSON.stringify(body)}\n`, { status, headers: { "content-type": "application/json", ...headers } });

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A session as `POST /sessions` and `GET /sessions/<sid>` answer it: where its fakes are (under
 * `/s/<address>/` on `origin`: its id, or `<sid>~<secret>`), its scenario and clock, when it
 * expires unless used.
 *
 * @example describeSession(record, "http://127.0.0.1:7353", served).mcpServers[0].url // http://127.0.0.1:7353/s/<sid>/crm/mcp
 */
export function describeSession(record: SessionRecord<SessionWorld>, origin: string, served: Served) {
  const base = `${origin}/s/${encodeURIComponent(record.id)}${record.secret === undefined ? "" : `~${record.secret}`}`;
  const serves = (id: string) => record.fakes === undefined || record.fakes.has(id);
  return {
    id: record.id,
    scenario: record.scenario,
    clock: record.clock,
    seed: record.seed,
    created: iso(record.created),
    lastUsed: iso(record.lastUsed),
    expiresAt: iso(record.lastUsed + record.ttlMs),
    calls: record.world.callCount(),
    secret: record.secret !== undefined,
    address: record.address,
    ...(record.fakes === undefined ? {} : { fakes: [...record.fakes] }),
    mcpServers: served.mcp.filter(serves).map((id) => ({ id, transport: "streamable_http" as const, url: `${base}/${id}/mcp` })),
    apis: Object.fromEntries(
      Object.entries(served.apis)
        .filter(([id]) => serves(id))
        .map(([id, basePath]) => [id, `${base}/${id}${basePath}`]),
    ),
  };
}

/** A session's description without what opens it (its address and URLs), for a listing whoever may read. */
function withoutAddress(description: ReturnType<typeof describeSession>) {
  if (!description.secret) return description;
  const { address: _address, mcpServers: _mcp, apis: _apis, ...rest } = description;
  return rest;
}

const CREATE_KEYS = ["scenario", "clock", "seed", "ttlSeconds", "id", "secret", "fakes"];
const FORK_KEYS = ["seed", "ttlSeconds", "id", "secret"];

/** A JSON object body with only `keys`; an empty body is `{}`. */
async function readOptions(request: Request, keys: readonly string[]): Promise<SessionOptions> {
  const text = await request.text();
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new SessionOptionsError(`the body is not JSON: ${(error as Error).message}`);
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new SessionOptionsError(`the body is a JSON object with ${keys.join(", ")}`);
  const unknown = Object.keys(body).filter((key) => !keys.includes(key));
  if (unknown.length > 0)
    throw new SessionOptionsError(
      `unknown ${unknown.length === 1 ? "field" : "fields"} ${unknown.map((k) => JSON.stringify(k)).join(", ")}; known: ${keys.join(", ")}`,
    );
  const options = body as Record<string, unknown>;
  for (const key of ["scenario", "id"]) {
    if (options[key] !== undefined && typeof options[key] !== "string") throw new SessionOptionsError(`${key} is a string`);
  }
  if (options.clock !== undefined && typeof options.clock !== "string" && typeof options.clock !== "number")
    throw new SessionOptionsError("clock is an ISO 8601 string or epoch milliseconds");
  if (options.secret !== undefined && typeof options.secret !== "boolean") throw new SessionOptionsError("secret is true or false");
  if (options.fakes !== undefined && (!Array.isArray(options.fakes) || options.fakes.some((id) => typeof id !== "string")))
    throw new SessionOptionsError("fakes is a list of fake ids");
  return options as SessionOptions;
}

/** Each engine error of a session as its HTTP answer. */
function answerError(error: unknown): Response {
  if (error instanceof SessionLimitError) return json(429, { error: "too_many_sessions", message: error.message, limit: error.limit });
  if (error instanceof UnknownSessionError) return json(404, { error: "unknown_session", message: error.message, session: error.id });
  if (error instanceof SessionOptionsError)
    return json(error.status, { error: error.status === 409 ? "session_exists" : "bad_session", message: error.message });
  if (error instanceof WorldError) return json(400, { error: "bad_session", message: `[eval-simulate] ${error.message.replace(/^\[eval-simulate\] /, "")}` });
  throw error;
}

/** A media type JSON is written in: `application/json` or `application/<anything>+json`, parameters aside. */
const JSON_TYPE = /^application\/(?:[\w.!#$&^-]+\+)?json$/i;

/**
 * 415 for a POST whose body is not declared JSON: what an HTML form or a simple cross-site
 * `fetch` sends (form, multipart, text/plain) is never read as options. No body needs no type.
 */
function notJson(request: Request): Response | undefined {
  const type = request.headers.get("content-type");
  if (type === null ? request.body === null : JSON_TYPE.test(type.split(";")[0].trim())) return undefined;
  return json(
    415,
    { error: "unsupported_media_type", message: "a POST to /sessions takes a JSON body: Content-Type: application/json" },
    { "accept-post": "application/json" },
  );
}

const notAllowed = (allow: string) => json(405, { error: "method_not_allowed", message: `this route takes ${allow}` }, { allow });

/** How the session routes behave beyond the registry. */
export interface SessionRouteOptions {
  /**
   * Whether listings (`GET /sessions`, `GET /sessions/<sid>`) show a secret session's address
   * and URLs: only when an admin token guards them. The `POST` that makes a session always does.
   */
  reveal?: boolean;
  /** Told of requests that carried a session's address and reached outside it. */
  onOutside?: OutsideListener;
}

/** The session a request's dot segments led out of: its raw target opens one that its resolved path does not. */
function traversed<W extends SessionWorld>(
  registry: SessionRegistry<W>,
  raw: string | undefined,
  served: SessionRecord<W> | undefined,
): SessionRecord<W> | undefined {
  if (raw === undefined) return undefined;
  const addressed = sessionPath(raw);
  if (!addressed || !DOT_SEGMENT.test(addressed.rest)) return undefined;
  const left = registry.find(addressed.sid);
  return left !== undefined && left !== served ? left : undefined;
}

/** A `.` or `..` path segment, as it is written or percent-encoded: what URL parsing resolves away. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;

/**
 * The session routes (`POST`/`GET /sessions`, `GET`/`DELETE /sessions/<sid>`, `POST
 * /sessions/<sid>/reset` and `/fork`), all behind the admin token, and the addressing of a
 * session's fakes: `/s/<address>/...`, or the `EvalSimulate-Session` header on traffic routed by
 * Host. A session made with a secret is opened only by `<sid>~<secret>`; its bare id or a wrong
 * secret answers exactly as a session that does not exist.
 *
 * @example const hook = sessionRoutes(registry, served, (world) => world.admin);
 */
export function sessionRoutes<W extends SessionWorld>(
  registry: SessionRegistry<W>,
  served: Served,
  adminFor: (world: W) => WorldAdmin,
  options: SessionRouteOptions = {},
): SessionHook {
  // Made once per world, not per request: every call of every session passes here.
  const admins = new WeakMap<W, WorldAdmin>();
  const adminOf = (world: W) => {
    let admin = admins.get(world);
    if (!admin) admins.set(world, (admin = adminFor(world)));
    return admin;
  };
  const outside = options.onOutside ?? (() => undefined);
  const describe = (record: SessionRecord<W>, url: URL) => describeSession(record, url.origin, served);
  const listed = (record: SessionRecord<W>, url: URL) => (options.reveal ? describe(record, url) : withoutAddress(describe(record, url)));
  const manage = async (request: Request, url: URL, rest: string[]): Promise<Response> => {
    const method = request.method.toUpperCase();
    const unreadable = method === "POST" ? notJson(request) : undefined;
    if (unreadable) return unreadable;
    if (rest.length === 0) {
      if (method === "POST") return json(201, describe(await registry.create(await readOptions(request, CREATE_KEYS)), url));
      if (method === "GET") return json(200, { sessions: registry.list().map((record) => listed(record, url)), limit: registry.maxSessions });
      return notAllowed("GET, POST");
    }
    const [sid, action, ...more] = rest;
    if (more.length > 0) return json(404, { error: "not_found", message: `nothing is served at ${url.pathname}` });
    if (action === undefined) {
      if (method === "GET") return json(200, listed(registry.require(sid), url));
      if (method === "DELETE") {
        const record = await registry.remove(registry.require(sid).id);
        const { store } = record.world.scope;
        return json(200, { id: record.id, scenario: record.scenario, states: store.states, initial: store.initial, calls: record.world.callCount() });
      }
      return notAllowed("GET, DELETE");
    }
    if (action !== "reset" && action !== "fork")
      return json(404, { error: "not_found", message: `nothing is served at ${url.pathname}; a session's routes are reset and fork` });
    if (method !== "POST") return notAllowed("POST");
    if (action === "reset") return json(200, listed(registry.reset(sid), url));
    const from = registry.require(sid);
    return json(201, describe(await registry.create(await readOptions(request, FORK_KEYS), from), url));
  };

  // A fake's own paths win over the session routes: a fake named `sessions` hides them, one
  // named `s` the path prefix (its sessions are then picked by header only).
  const fakeIds = new Set([...served.mcp, ...Object.keys(served.apis)]);
  const byPath = !fakeIds.has("s");
  return async (request, url, refuse, raw) => {
    const header = request.headers.get(SESSION_HEADER) || undefined;
    const byHeader = header === undefined ? undefined : registry.find(header);
    const addressed = byPath ? sessionPath(request.url) : undefined;
    const record = addressed ? registry.find(addressed.sid) : byHeader;
    const left = byPath ? traversed(registry, raw, record) : undefined;
    if (left) outside(left.id, "traversal", request);
    const segments = url.pathname.split("/").filter(Boolean);
    if (segments[0] === "sessions" && !fakeIds.has("sessions")) {
      if (byHeader) outside(byHeader.id, "sessions", request);
      const refused = refuse(request);
      if (refused) return refused;
      try {
        return await manage(request, url, segments.slice(1).map(decoded));
      } catch (error) {
        return answerError(error);
      }
    }
    const address = addressed?.sid ?? header;
    if (address === undefined || address === "") return undefined;
    // A header that opens one session on a path that does not address it: its holder reached out.
    if (addressed && byHeader && byHeader !== record) outside(byHeader.id, "other-session", request);
    if (!record) {
      // Named by its id alone, whatever secret was tried: every miss answers the same.
      const { sid } = splitAddress(address);
      const error = new UnknownSessionError(sid);
      // An MCP client reads JSON-RPC: the SDK's own code for a session that is not found.
      if ((addressed?.rest ?? url.pathname).endsWith("/mcp"))
        return json(404, { jsonrpc: "2.0", id: null, error: { code: -32001, message: error.message, data: { session: sid } } });
      return answerError(error);
    }
    record.lastUsed = Date.now();
    return {
      prefix: addressed?.prefix ?? "",
      path: addressed?.rest ?? url.pathname,
      admin: adminOf(record.world),
      session: record.id,
      ...(record.fakes ? { fakes: record.fakes } : {}),
    };
  };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
