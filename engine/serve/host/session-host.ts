import { join } from "node:path";
import type { States } from "../runtime/index.js";
import { SessionOptionsError } from "../sessions/index.js";
import { type SessionOptions, type SessionRecord, SessionRegistry } from "../sessions/index.js";
import { type OutsideListener, type SessionHook, type Served, sessionRoutes } from "../sessions/index.js";
import { WorldTemplates } from "../sessions/index.js";
import { CallsInFlight } from "./calls-in-flight.js";
import type { Evidence } from "./evidence.js";
import { FakeSelectionError, type Fakes, selectFakes } from "../../author/fakes/index.js";
import type { ServedWorld } from "./request-world.js";
import { rawTargetOf } from "../http/index.js";
import { sameSecret } from "../http/index.js";
import { type Session, sessionHandle } from "./session-handle.js";
import { writeJsonAtomic } from "./state-files.js";
import { DurableStateFile } from "./durable-state.js";
import { commitPatches } from "./record-changes.js";
import { faultsFor, type ServicesOptions, startingStates, stubsFor } from "./starting-states.js";

/** The host's sessions: the registry, the routes' hook, and sessions made in-process. */
export interface SessionHost {
  registry: SessionRegistry<ServedWorld>;
  hook: SessionHook;
  /** Told of a request that carried a session's address and reached outside it: passes it on as `onOutside`. */
  outside: OutsideListener;
  create(options?: SessionOptions): Promise<Session>;
  close(): Promise<void>;
}

/** The process's own world and what sessions are made from beside it. */
export interface SessionHostInput {
  fakes: Fakes;
  options: ServicesOptions;
  /** The host's scenario (undefined when it resumed a run) and clock: a session's defaults. */
  scenario: string | undefined;
  clock: Date;
  /** The process's own evidence: sessions share its redaction and record file. */
  evidence: Evidence;
  served: Served;
  /** `http://<host>:<port>`, once the port is open. */
  origin(): string;
  /** Each session's world byte limit (the host's own world has the same). */
  maxWorldBytes: number;
  /** Told of a session freed (expired, deleted, closed) by its address: what the fakes hold for it is ended. */
  onFreed?(address: string): void;
}

/**
 * Sessions on the host: each one's world built from its scenario's template, its evidence a
 * journal of its own beside the process's record file, and (with `stateDir`) its state kept in
 * `<sid>.state.json` and its log `<sid>.state.json.log` (each commit appended before it is
 * answered, see `durable-state.ts`) and `<sid>.initial.json` written at its start.
 *
 * @example const sessions = sessionHost({ fakes, options, scenario, clock, evidence, served, origin });
 */
export function sessionHost(input: SessionHostInput): SessionHost {
  const { fakes, options } = input;
  const warn = options.warn ?? console.warn;
  const stateDir = options.stateDir;
  const write = (id: string, kind: "state" | "initial", states: States) => {
    if (!stateDir) return;
    const file = join(stateDir, `${id}.${kind}.json`);
    try {
      writeJsonAtomic(file, states);
    } catch (error) {
      warn(`[eval-simulate] warning: could not write the session file ${file}: ${(error as Error).message}`);
    }
  };
  // Each session's state file and its log: one writer per session id, replaced when its world is.
  const durables = new Map<string, DurableStateFile>();
  const durableState = (id: string, states: () => States) => {
    durables.get(id)?.abandon();
    const durable = new DurableStateFile(join(stateDir!, `${id}.state.json`), states, { warn, keepOpen: false });
    durables.set(id, durable);
    try {
      durable.start();
    } catch (error) {
      warn(`[eval-simulate] warning: could not write the session file ${durable.file}: ${(error as Error).message}`);
    }
    return durable;
  };
  const templates = new WorldTemplates(async (scenario, clock) => {
    if (!options.world) throw new SessionOptionsError("sessions are built from a world (loadFakes gives one); this host only resumed a run");
    const built = await startingStates(fakes, { ...options, resume: undefined, scenario }, clock);
    return {
      scenario: built.scenario,
      states: built.states,
      stubs: stubsFor(fakes, built.scenario, options),
      faults: faultsFor(fakes, built.scenario, options),
    };
  });
  const registry: SessionRegistry<ServedWorld> = new SessionRegistry<ServedWorld>({
    templates,
    scenario: input.scenario,
    clock: input.clock,
    maxSessions: options.maxSessions,
    ttlSeconds: options.sessionTtlSeconds,
    sweepMs: options.sessionSweepMs,
    maxWorldBytes: input.maxWorldBytes,
    makeWorld(id, scope) {
      const evidence = input.evidence.forSession(id);
      const inFlight = new CallsInFlight();
      let live = true;
      write(id, "initial", scope.store.initial);
      if (stateDir) {
        const durable = durableState(id, () => scope.store.states);
        scope.store.onCommit((fake, commit) => live && durable.append(fake, commitPatches(commit)));
      }
      const settled = async () => {
        await inFlight.settled();
        await scope.store.idle();
      };
      return { scope, evidence, inFlight, settled, callCount: () => evidence.journal.total, retire: () => void (live = false) };
    },
    // An expired or deleted session leaves its last state behind, as a snapshot without a log.
    onFree: (record) => {
      durables.get(record.id)?.close();
      durables.delete(record.id);
      input.onFreed?.(record.secret === undefined ? record.id : `${record.id}~${record.secret}`);
    },
    sameSecret,
    selectFakes(ids) {
      try {
        return Object.keys(selectFakes(fakes, ids, "the session's fakes"));
      } catch (error) {
        if (error instanceof FakeSelectionError) throw new SessionOptionsError(error.message.replace(/^\[eval-simulate\] /, ""));
        throw error;
      }
    },
  });
  const outside: OutsideListener = (session, kind, request) => {
    if (!options.onOutside) return;
    const target = rawTargetOf(request) ?? request.url;
    // What opens the session stays out of what is reported: the secret after `~` is cut.
    const path = target.slice(target.indexOf("/", target.indexOf("//") + 2)).replace(/(\/s\/[^/?#~]*)~[^/?#]*/g, "$1~…");
    options.onOutside({ session, kind, method: request.method, path });
  };
  const hook = sessionRoutes(
    registry,
    input.served,
    ({ scope, evidence }) => ({
      state: (id) => scope.store.states[id],
      initialState: (id) => scope.store.initial[id],
      calls: (filter) => evidence.calls(filter),
      stubs: (id) => scope.stubs?.usage(id) ?? [],
    }),
    // Listings show what opens a secret session only behind the admin token.
    { reveal: options.adminToken !== undefined, onOutside: outside },
  );
  const handle = (record: SessionRecord<ServedWorld>): Session =>
    sessionHandle(record, { registry, served: input.served, origin: input.origin, fork: async (from, forked) => handle(await registry.create(forked, from)) });
  return {
    registry,
    hook,
    outside,
    create: async (sessionOptions) => handle(await registry.create(sessionOptions)),
    close: () => registry.close(),
  };
}
