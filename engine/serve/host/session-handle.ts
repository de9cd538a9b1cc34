import type { JournalEntry } from "../journal/index.js";
import type { States } from "../runtime/index.js";
import { describeSession, type Served } from "../sessions/index.js";
import type { SessionOptions, SessionRecord, SessionRegistry } from "../sessions/index.js";
import type { StubUsage } from "../stubs/index.js";
import type { ServedWorld } from "./request-world.js";

/** What a session held when it was closed (what `DELETE /sessions/<sid>` answers). */
export interface ClosedSession {
  id: string;
  /** Its final state by fake id, as `Session.states` (read-only; a large entity not `Object.isFrozen`). */
  states: States;
  initial: States;
  /** How many calls it answered. */
  calls: number;
}

/**
 * A fresh, isolated world on the running host: one per trial.
 *
 * @example
 * const session = await services.createSession({ seed: k });
 * await runAgent({ mcpServers: session.mcpServers() });
 * const { states, initial } = await session.close();
 */
export interface Session {
  id: string;
  /**
   * What addresses it (the `/s/<address>/` prefix, the `EvalSimulate-Session` header): its id,
   * or `<sid>~<secret>` for a session made with `secret: true`. Hand it only to its own agent.
   */
  address: string;
  scenario: string;
  /** ISO 8601. */
  clock: string;
  seed: number;
  /** `http://<host>:<port>/s/<address>/<id>/mcp`. */
  url(fakeId: string): string;
  /** `http://<host>:<port>/s/<address>/<id><base path>`: an API fake's base URL in this session. */
  baseUrl(apiId: string): string;
  /** The fakes it serves, in the host's order: every one, or its `fakes`. */
  fakes: readonly string[];
  /** Every MCP fake of this session, as an agent harness binds it. */
  mcpServers(): Array<{ id: string; transport: "streamable_http"; url: string }>;
  /** Its live state by fake id (read-only values, replaced as calls commit; a large entity is not `Object.isFrozen`, see `Services.states`). */
  readonly states: States;
  /** The state it started from (its fork point, for a fork). */
  readonly initial: States;
  /** Its journal, for one fake or all. */
  calls(id?: string): JournalEntry[];
  /** Its stubs with how many of its calls each answered. */
  stubs(): StubUsage[];
  /** Resolves when its calls in flight have finished. */
  idle(): Promise<void>;
  /** Back to its starting state; its journal and stub cursors start over. */
  reset(): void;
  /** A new session starting from this one's current state (and stub cursors). */
  fork(options?: Pick<SessionOptions, "id" | "seed" | "ttlSeconds" | "secret">): Promise<Session>;
  /** Frees it once its calls have settled, answering what it held; later calls answer the same. */
  close(): Promise<ClosedSession>;
}

interface HandleContext {
  registry: SessionRegistry<ServedWorld>;
  served: Served;
  origin(): string;
  fork(from: SessionRecord<ServedWorld>, options: SessionOptions): Promise<Session>;
}

/**
 * The library's view of a session record: URLs on the host's origin, its world read live (a
 * reset replaces it), and its end.
 *
 * @example const session = sessionHandle(record, context); session.url("crm");
 */
export function sessionHandle(record: SessionRecord<ServedWorld>, context: HandleContext): Session {
  const { registry } = context;
  const describe = () => describeSession(record, context.origin(), context.served);
  // Using a session from the library counts as using it: its idle TTL starts again.
  const live = () => {
    const found = registry.require(record.id);
    found.lastUsed = Date.now();
    return found;
  };
  let closing: Promise<ClosedSession> | undefined;
  return {
    id: record.id,
    address: record.address,
    scenario: record.scenario,
    clock: record.clock,
    seed: record.seed,
    fakes: [...(record.fakes ?? [...context.served.mcp, ...Object.keys(context.served.apis)])],
    url: (fakeId) => {
      const server = describe().mcpServers.find((s) => s.id === fakeId);
      if (!server)
        throw new Error(
          `[eval-simulate] no MCP fake "${fakeId}" is served in this session; served: ${describe()
            .mcpServers.map((s) => s.id)
            .join(", ")}`,
        );
      return server.url;
    },
    baseUrl: (apiId) => {
      const url = describe().apis[apiId];
      if (url === undefined)
        throw new Error(`[eval-simulate] no API fake "${apiId}" is served in this session; served: ${Object.keys(describe().apis).join(", ")}`);
      return url;
    },
    mcpServers: () => describe().mcpServers,
    get states() {
      return record.world.scope.store.states;
    },
    get initial() {
      return record.world.scope.store.initial;
    },
    calls: (id) => record.world.evidence.calls(id === undefined ? {} : { fake: id }),
    stubs: () => record.world.scope.stubs?.usage() ?? [],
    idle: () => record.world.scope.store.idle(),
    reset: () => void registry.reset(live().id),
    fork: (options = {}) => context.fork(live(), options),
    close() {
      closing ??= (async () => {
        if (registry.get(record.id) === record) await registry.remove(record.id);
        const { store } = record.world.scope;
        return { id: record.id, states: store.states, initial: store.initial, calls: record.world.callCount() };
      })();
      return closing;
    },
  };
}
