/**
 * 2025-era traffic served with MCP sessions (`Mcp-Session-Id`), for a fake declared with
 * `sessions: true`. The stateless fallback answers each POST with a fresh server that never saw
 * the `initialize`, so it cannot ask the client anything (the client's answer arrives in another
 * POST, routed by session) and has no standing GET stream to push `notifications/resources/updated`
 * on. Here each session keeps one server and one SDK transport until the client DELETEs it, it
 * idles past `idleMs`, or one is ended to make room: every input bounded in count and time. The
 * sessions of every trial share the cap, so room is made from the owner (a trial's world) holding
 * the most: a trial that opens session after session ends its own, never another's.
 */
import { randomUUID } from "node:crypto";
import type { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { mcpSdk } from "../../author/contract/index.js";

/** Options for `legacySessions`. */
export interface LegacySessionsOptions {
  /** Sessions kept at once; the least recently used of the owner holding the most is ended to make room. 256 by default. */
  maxSessions?: number;
  /** Who a request's session belongs to (a trial's world); one owner for all by default. */
  owner?: (request: Request) => string;
  /** A session unused this long is ended. 30 minutes by default. */
  idleMs?: number;
  onerror?: (error: Error) => void;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
  owner: string;
}

/** The sessions of one fake's 2025-era clients. */
export interface LegacySessions {
  /** Serves one 2025-era request (POST, GET stream, DELETE) in its session. */
  fetch(request: Request, parsedBody: unknown): Promise<Response>;
  /** Ends every session. */
  close(): Promise<void>;
  /** Ends the sessions of one owner (a trial's world that is gone). */
  endOwner(owner: string): void;
  /** Sessions open now. */
  readonly size: number;
}

/**
 * Sessions for 2025-era clients: a new one on each `initialize`, found again by its id.
 *
 * @example const sessions = legacySessions(() => servers.create({ sessions: true })); await sessions.fetch(request, body);
 */
export function legacySessions(create: () => Server, options: LegacySessionsOptions = {}): LegacySessions {
  const maxSessions = options.maxSessions ?? 256;
  const idleMs = options.idleMs ?? 30 * 60_000;
  const sessions = new Map<string, Session>();
  const end = (id: string): void => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    session.transport.close().catch(() => {});
    session.server.close().catch(() => {});
  };
  const ownerOf = options.owner ?? (() => "");
  // Swept when a session starts, so a quiet endpoint needs no timer.
  const sweep = (now: number, owner: string): void => {
    for (const [id, session] of sessions) if (now - session.lastUsed > idleMs) end(id);
    while (sessions.size >= maxSessions) end(roomFrom(sessions, owner));
  };

  return {
    get size() {
      return sessions.size;
    },
    async fetch(request, parsedBody) {
      const id = request.headers.get("mcp-session-id");
      if (id !== null) {
        const session = sessions.get(id);
        if (!session) return jsonRpcError(404, -32001, "Session not found");
        // Least recently used last: the Map keeps insertion order.
        sessions.delete(id);
        session.lastUsed = Date.now();
        sessions.set(id, session);
        return session.transport.handleRequest(request, { parsedBody });
      }
      const messages = Array.isArray(parsedBody) ? parsedBody : [parsedBody];
      if (request.method !== "POST" || !messages.some((message) => mcpSdk().isInitializeRequest(message))) {
        return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
      }
      const owner = ownerOf(request);
      sweep(Date.now(), owner);
      const server = create();
      const transport = new (mcpSdk().WebStandardStreamableHTTPServerTransport)({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, { transport, server, lastUsed: Date.now(), owner }),
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
      transport.onerror = (error) => options.onerror?.(error);
      await server.connect(transport);
      return transport.handleRequest(request, { parsedBody });
    },
    async close() {
      for (const id of [...sessions.keys()]) end(id);
    },
    endOwner(owner) {
      for (const [id, session] of [...sessions]) if (session.owner === owner) end(id);
    },
  };
}

/**
 * The session to end to make room for one of `owner`'s: the least recently used of the owner
 * holding the most (counting the new one, so a tie ends the asker's own).
 */
function roomFrom(sessions: ReadonlyMap<string, Session>, owner: string): string {
  const held = new Map<string, number>([[owner, 1]]);
  for (const session of sessions.values()) held.set(session.owner, (held.get(session.owner) ?? 0) + 1);
  let most = owner;
  for (const [candidate, count] of held) if (count > held.get(most)! || (count === held.get(most)! && candidate === owner)) most = candidate;
  // Least recently used first: the Map keeps insertion order, and a session used is put last.
  for (const [id, session] of sessions) if (session.owner === most) return id;
  return sessions.keys().next().value as string;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}
