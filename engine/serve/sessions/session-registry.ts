import { randomBytes } from "node:crypto";
import type { RuntimeScope } from "../runtime/index.js";
import { parseClock } from "../../author/world/index.js";
import { SECRET_SEPARATOR, SESSION_ID, splitAddress } from "./session-address.js";
import { SessionLimitError, SessionOptionsError, UnknownSessionError } from "./session-errors.js";
import { sessionScope, type WorldTemplate, type WorldTemplates } from "./world-templates.js";

/** What a session is created with (the body of `POST /sessions`). */
export interface SessionOptions {
  /** The scenario its world is built from; the host's by default. */
  scenario?: string;
  /** Its clock (ISO 8601, epoch ms or a Date); the host's by default. */
  clock?: string | number | Date;
  /** Mixed into every fault's seed, so trial k draws the same latencies and failures each run; 0 by default. */
  seed?: number;
  /** Freed after this long without a request; the host's idle TTL (one hour) by default. */
  ttlSeconds?: number;
  /** Its id; a random one by default. */
  id?: string;
  /**
   * Only these of the host's fakes, by id, are served in it (an eval case's `fakes`): its
   * description and `mcpServers` name only them, and another fake's path answers 404 as a request
   * outside the session. The others keep their starting state. Every fake by default; a fork
   * serves its origin's.
   */
  fakes?: readonly string[];
  /**
   * Addressed only with a secret of 32 random bytes (`/s/<sid>~<secret>/...`): knowing its id
   * gets nothing. A fork of such a session has a secret of its own unless this is `false`.
   */
  secret?: boolean;
}

/** A world a session serves from: a runtime scope, and whatever else the host keeps beside it. */
export interface SessionWorld {
  scope: RuntimeScope;
  /** How many calls it has answered. */
  callCount(): number;
  /** Resolves once every call it is serving has ended; its store's `idle()` when unset. */
  settled?(): Promise<void>;
  /** It stops being the session's (reset or freed): nothing it does later may reach the session's files. */
  retire?(): void;
}

/** One live session. */
export interface SessionRecord<W extends SessionWorld> {
  readonly id: string;
  readonly scenario: string;
  /** ISO 8601. */
  readonly clock: string;
  readonly seed: number;
  /** What its address must carry after `~`, when it was made with a secret. */
  readonly secret?: string;
  /** What addresses it: its id, or `<sid>~<secret>`. */
  readonly address: string;
  /** The fakes it serves, when only some of the host's (in the host's order); every one when unset. */
  readonly fakes?: ReadonlySet<string>;
  readonly ttlMs: number;
  /** Epoch ms. */
  readonly created: number;
  /** Epoch ms of its last request. */
  lastUsed: number;
  world: W;
  readonly template: WorldTemplate;
}

/** Why a session was freed. */
export type FreedBecause = "deleted" | "expired" | "closed";

export interface RegistryOptions<W extends SessionWorld> {
  templates: WorldTemplates;
  /** The host's scenario and clock: a session without its own gets these (and shares the host's template). */
  scenario?: string;
  clock: Date;
  /** 10,000 by default. */
  maxSessions?: number;
  /** One hour by default. */
  ttlSeconds?: number;
  /** How often expired sessions are looked for; 60 s by default. */
  sweepMs?: number;
  /** The most bytes of JSON each session's world may hold; no limit when unset. */
  maxWorldBytes?: number;
  /** The host's world around a session's scope (its evidence, its files). */
  makeWorld(id: string, scope: RuntimeScope, template: WorldTemplate): W;
  /** Told once a freed session's calls have settled. */
  onFree?(record: SessionRecord<W>, reason: FreedBecause): void;
  /** Compares an address's secret with the session's in constant time; without it no secret opens a session. */
  sameSecret?(given: string, expected: string): boolean;
  /** A session's `fakes`, checked against the host's (a `SessionOptionsError` when it cannot be served) and put in the host's order. */
  selectFakes?(ids: readonly string[]): readonly string[];
}

export const DEFAULT_MAX_SESSIONS = 10_000;
export const DEFAULT_SESSION_TTL_SECONDS = 3600;
/** A year: past it an expiry time is no longer a date. */
const MAX_TTL_SECONDS = 365 * 24 * 3600;

/**
 * Every session of the host: created from a world template (nothing compiled again), bounded in
 * number, freed when deleted or idle past their TTL. A session expired between sweeps is freed
 * when it is next asked for.
 *
 * @example const record = await registry.create({ scenario: "quiet", seed: 3 }); registry.get(record.id);
 */
export class SessionRegistry<W extends SessionWorld> {
  readonly maxSessions: number;
  readonly ttlSeconds: number;
  private readonly sessions = new Map<string, SessionRecord<W>>();
  /** Ids being created: they count against the limit and cannot be taken twice. */
  private readonly reserved = new Set<string>();
  /** Ids of sessions being freed, until their calls have ended: a new session of the id waits. */
  private readonly freeing = new Map<string, Promise<unknown>>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: RegistryOptions<W>) {
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.ttlSeconds = options.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
    this.timer = setInterval(() => this.sweep(), options.sweepMs ?? 60_000);
    this.timer.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** A new session from its scenario's template, or from `from`'s current state (a fork). */
  async create(options: SessionOptions = {}, from?: SessionRecord<W>): Promise<SessionRecord<W>> {
    const id = options.id ?? randomBytes(8).toString("hex");
    if (typeof id !== "string" || !SESSION_ID.test(id))
      throw new SessionOptionsError(`a session id is 1-64 letters, digits, "_", "-" or ".", not ${JSON.stringify(id)}`);
    const seed = options.seed ?? from?.seed ?? 0;
    if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new SessionOptionsError(`seed is an integer from 0 to 4294967295, not ${JSON.stringify(seed)}`);
    const ttl = options.ttlSeconds ?? (from ? from.ttlMs / 1000 : this.ttlSeconds);
    if (typeof ttl !== "number" || !(ttl > 0) || ttl > MAX_TTL_SECONDS)
      throw new SessionOptionsError(`ttlSeconds is a positive number up to ${MAX_TTL_SECONDS} (a year), not ${JSON.stringify(ttl)}`);
    if (options.secret !== undefined && typeof options.secret !== "boolean")
      throw new SessionOptionsError(`secret is true or false, not ${JSON.stringify(options.secret)}`);
    const fakes = options.fakes === undefined ? from?.fakes : new Set(this.subset(options.fakes));
    // The id's last session must be done with it: its late calls would write into this one's files and record.
    while (this.freeing.has(id)) await this.freeing.get(id);
    if (this.sessions.has(id) || this.reserved.has(id)) throw new SessionOptionsError(`a session "${id}" exists already`, 409);
    if (this.sessions.size + this.reserved.size >= this.maxSessions) throw new SessionLimitError(this.maxSessions);
    this.reserved.add(id);
    let template: WorldTemplate;
    try {
      template = from ? from.template : await this.options.templates.get(options.scenario ?? this.options.scenario, clockOf(options.clock, this.options.clock));
    } finally {
      this.reserved.delete(id);
    }
    const scope = sessionScope(template, seed, from?.world.scope, this.options.maxWorldBytes);
    const now = Date.now();
    const secret = (options.secret ?? from?.secret !== undefined) ? randomBytes(32).toString("base64url") : undefined;
    const record: SessionRecord<W> = {
      id,
      scenario: template.scenario,
      clock: template.clock,
      seed,
      ...(secret === undefined ? {} : { secret }),
      address: secret === undefined ? id : `${id}${SECRET_SEPARATOR}${secret}`,
      ...(fakes === undefined ? {} : { fakes }),
      ttlMs: ttl * 1000,
      created: now,
      lastUsed: now,
      world: this.options.makeWorld(id, scope, template),
      template,
    };
    this.sessions.set(id, record);
    return record;
  }

  /** A session's `fakes` as the host checks them. */
  private subset(ids: unknown): readonly string[] {
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string"))
      throw new SessionOptionsError(`fakes is a list of fake ids, not ${JSON.stringify(ids)}`);
    if (!this.options.selectFakes) throw new SessionOptionsError("this host serves no subsets of its fakes");
    return this.options.selectFakes(ids);
  }

  /** The live session with this id, or undefined (an expired one is freed now). */
  get(id: string): SessionRecord<W> | undefined {
    const record = this.sessions.get(id);
    if (record && Date.now() - record.lastUsed >= record.ttlMs) {
      void this.remove(id, "expired");
      return undefined;
    }
    return record;
  }

  /**
   * The live session an address opens: a session's id when it has no secret, `<sid>~<secret>`
   * when it has one (compared in constant time). Every miss (no such session, a bare id or a
   * wrong secret) is undefined alike, so a caller cannot tell them apart.
   *
   * @example registry.find(record.address) === record; registry.find(record.id) // undefined when it has a secret
   */
  find(address: string): SessionRecord<W> | undefined {
    const { sid, secret } = splitAddress(address);
    const record = this.get(sid);
    if (!record) return undefined;
    if (record.secret === undefined) return secret === undefined ? record : undefined;
    return secret !== undefined && this.options.sameSecret?.(secret, record.secret) === true ? record : undefined;
  }

  /** The live session with this id, or an `UnknownSessionError`. */
  require(id: string): SessionRecord<W> {
    const record = this.get(id);
    if (!record) throw new UnknownSessionError(id);
    return record;
  }

  list(): Array<SessionRecord<W>> {
    return [...this.sessions.keys()].map((id) => this.get(id)).filter((record) => record !== undefined);
  }

  /** Back to its starting state: a new world from its template; journal and stub cursors start over. */
  reset(id: string): SessionRecord<W> {
    const record = this.require(id);
    record.world.retire?.();
    // Calls still running finish in the old world, which nothing reads any more.
    record.world = this.options.makeWorld(id, sessionScope(record.template, record.seed, undefined, this.options.maxWorldBytes), record.template);
    record.lastUsed = Date.now();
    return record;
  }

  /** Frees a session once its calls have settled; its last state is what `onFree` is told. */
  async remove(id: string, reason: FreedBecause = "deleted"): Promise<SessionRecord<W>> {
    const record = this.sessions.get(id);
    if (!record) throw new UnknownSessionError(id);
    this.sessions.delete(id);
    const freed = (async () => {
      await (record.world.settled?.() ?? record.world.scope.store.idle());
      record.world.retire?.();
      this.options.onFree?.(record, reason);
    })();
    this.freeing.set(
      id,
      freed.catch(() => undefined),
    );
    try {
      await freed;
    } finally {
      this.freeing.delete(id);
    }
    return record;
  }

  /** Frees every session idle past its TTL. */
  sweep(now = Date.now()): void {
    for (const record of this.sessions.values()) {
      if (now - record.lastUsed >= record.ttlMs) void this.remove(record.id, "expired");
    }
  }

  /** Stops the sweep and frees every session. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.allSettled([...this.sessions.keys()].map((id) => this.remove(id, "closed")));
  }
}

function clockOf(value: SessionOptions["clock"], fallback: Date): Date {
  if (value === undefined) return fallback;
  try {
    return parseClock(value);
  } catch (error) {
    throw new SessionOptionsError((error as Error).message.replace(/^\[eval-simulate\] /, ""));
  }
}
