import type { FaultManifest, StubManifest } from "../../author/model/index.js";
import type { States } from "../runtime/index.js";
import { UnknownScenarioError, type WorldSource } from "../../author/world/index.js";
import type { Fakes, WorldOption } from "../../author/fakes/index.js";
import { resumedStatesProblems } from "./resumed-states.js";
import type { HttpLimits } from "../http/index.js";
import type { OutsideKind } from "../sessions/index.js";

/** A request a session's holder sent outside the session (see `onOutside`). */
export interface OutsideAttempt {
  /** The session's id. */
  session: string;
  kind: OutsideKind;
  method: string;
  /** As the client sent it, the secret of any session address in it replaced by `…`. */
  path: string;
}

/** How `startServices` is configured (SPEC §9). */
export interface ServicesOptions {
  /** Every fake's starting state by scenario: from `loadFakes`, or `world(scenario, clock)`. */
  world?: WorldOption;
  /**
   * Serve only these fakes, by id (EVAL_SIMULATE_FAKES, `serve --fakes`): the others are not
   * mounted, their routes answer 404, and their state, manifests and stubs are left out. Refused
   * (a `FakeSelectionError`) when it names an id no fake has or leaves out a `required: true` fake.
   */
  fakes?: readonly string[];
  /** The scenario to build; the world's default when unset. */
  scenario?: string;
  /** The clock every date of the world is computed from, and handlers' `now`; now by default. */
  clock?: string | number | Date;
  /** 0 (an ephemeral port) by default. */
  port?: number;
  /** 127.0.0.1 by default; a sidecar listens on 0.0.0.0. */
  host?: string;
  /** Every fake's state, written atomically at start and after each call that changes it. */
  stateFile?: string;
  /** The state the fakes started from, written at start. */
  initialStateFile?: string;
  /** Continue an earlier run: start from `states`; `initial` is what `/admin/initial-state` reports. */
  resume?: { states: States; initial: States };
  /** Append each call as one JSON line to this file. */
  record?: string;
  /** Given each record line as it is made (with or without `record`): an eval runner keeps its trials' lines in memory. */
  onRecord?: (line: Record<string, unknown>) => void;
  /**
   * Told of each request that carried a session's address (its `/s/<address>/` prefix or
   * `EvalSimulate-Session` header) and reached outside it: the session routes, the admin routes,
   * another session's address, a path none of its fakes serve, or dot segments out of its prefix.
   * The path has the session's secret cut out.
   */
  onOutside?: (attempt: OutsideAttempt) => void;
  /** The fakes answer in sessions only: without one their routes answer 404, as an unknown session does. */
  sessionsOnly?: boolean;
  /** Write each fake's manifest.json and answers.json here at start, for checks without TypeScript. */
  manifestDir?: string;
  /** The scenarios' stubs, by scenario name (`loadFakes` gives them); the chosen scenario's are played. */
  stubs?: Record<string, readonly StubManifest[]>;
  /** The scenarios' faults, by scenario name (`loadFakes` gives them). */
  faults?: Record<string, readonly FaultManifest[]>;
  /** More field names to redact from the journal and the record (`redact` in the manifest). */
  redact?: readonly string[];
  /** How many calls the journal keeps (the last ones); 1000 by default. */
  journalLimit?: number;
  /** When set, `/<id>/admin/*` needs `Authorization: Bearer <token>` (EVAL_SIMULATE_ADMIN_TOKEN). */
  adminToken?: string;
  /**
   * Browser origins whose requests the port serves besides loopback ones (EVAL_SIMULATE_ALLOWED_ORIGINS):
   * `scheme://host[:port]`, a host name (any port) or `*`. Any other `Origin` is answered 403, on every route.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names the port answers to besides loopback names, IP literals and API fakes' `hosts`
   * (EVAL_SIMULATE_ALLOWED_HOSTS): a name (any port), `.name` (it and every name below it) or `*`.
   * Any other `Host` is answered 403 (DNS rebinding); beyond loopback, names without a dot are served too.
   */
  allowedHosts?: readonly string[];
  /** Serve the inspector page at `/_inspect` (behind the admin token when one is set). */
  inspect?: boolean;
  /** An eval run's results file (NDJSON) whose pass rates the inspector shows (EVAL_SIMULATE_INSPECT_RESULTS). */
  inspectResults?: string;
  /** Reads `inspectResults` into the inspector's per-case rows; `eval-simulate serve` gives the eval runner's summary. */
  inspectResultsReader?: (file: string) => Promise<unknown>;
  /** Each session's state, written as `<sid>.state.json` after each commit and `<sid>.initial.json` at its start (EVAL_SIMULATE_STATE_DIR). */
  stateDir?: string;
  /** How many sessions the host holds at once; 10,000 by default (EVAL_SIMULATE_MAX_SESSIONS). */
  maxSessions?: number;
  /**
   * The most bytes of JSON one world (the process's own, each session's) may hold; 64 MiB by
   * default (EVAL_SIMULATE_MAX_WORLD_BYTES). A write past it is a tool error (an API fake's 507)
   * and commits nothing.
   */
  maxWorldBytes?: number;
  /** A session unused this long is freed; one hour by default (a session's own `ttlSeconds` wins). */
  sessionTtlSeconds?: number;
  /** How often idle sessions are looked for; 60,000 ms by default. */
  sessionSweepMs?: number;
  /** What the port takes from its clients: requests in flight, pipelining, stall and request timeouts (`EVAL_SIMULATE_MAX_IN_FLIGHT`, `_STALL_TIMEOUT_MS`, `_REQUEST_TIMEOUT_MS`). */
  http?: Partial<HttpLimits>;
  /** Where warnings go (unused stubs when the services close); console.warn by default. */
  warn?: (message: string) => void;
}

/** The faults of the served scenario that target served fakes. */
export function faultsFor(fakes: Fakes, scenario: string, options: ServicesOptions): FaultManifest[] {
  const faults = options.faults ?? (options.world as { faults?: ServicesOptions["faults"] } | undefined)?.faults;
  return (faults?.[scenario] ?? []).filter((fault) => fault.fake in fakes);
}

/** The stubs of the served scenario that target served fakes. */
export function stubsFor(fakes: Fakes, scenario: string, options: ServicesOptions): StubManifest[] {
  const stubs = options.stubs ?? (options.world as { stubs?: ServicesOptions["stubs"] } | undefined)?.stubs;
  return (stubs?.[scenario] ?? []).filter((stub) => stub.fake in fakes);
}

function missing(fakes: Fakes, states: States | undefined): string[] {
  return Object.keys(fakes).filter((id) => !states || typeof states[id] !== "object" || states[id] === null);
}

/** Every fake's own slice of a world; fakes not served are left out. */
function slice(fakes: Fakes, states: States): States {
  return Object.fromEntries(Object.keys(fakes).map((id) => [id, states[id]]));
}

/**
 * The states the services start from: the world built for the scenario at the clock, or an
 * earlier run's when resuming. Refuses (naming the problem) a world or resume that lacks a fake,
 * and resumed states that break their entities (missing, outside the schema, not plain JSON).
 */
export async function startingStates(fakes: Fakes, options: ServicesOptions, clock: Date): Promise<{ states: States; initial: States; scenario: string }> {
  if (options.resume) {
    const { states, initial } = options.resume;
    const lacking = [
      ...new Set([...missing(fakes, states).map((id) => `states lacks "${id}"`), ...missing(fakes, initial).map((id) => `initial lacks "${id}"`)]),
    ];
    if (lacking.length > 0) throw new Error(`[eval-simulate] cannot resume: ${lacking.join(", ")}`);
    // Every problem at once, one a line, naming the fake, the entity and what is wrong.
    const broken = [
      ...resumedStatesProblems(fakes, states),
      ...(initial === states ? [] : resumedStatesProblems(fakes, initial).map((p) => `initial state: ${p}`)),
    ];
    if (broken.length > 0) {
      const count = broken.length === 1 ? "1 problem" : `${broken.length} problems`;
      throw new Error(`[eval-simulate] cannot resume: the states do not fit the fakes' entities (${count}):\n  ${broken.join("\n  ")}`);
    }
    return { states: slice(fakes, states), initial: slice(fakes, initial), scenario: options.scenario ?? "resumed" };
  }
  if (!options.world) throw new Error("[eval-simulate] startServices needs a world (from loadFakes) or resume");
  const source: WorldSource =
    typeof options.world === "function"
      ? {
          scenarios: [],
          defaultScenario: options.scenario ?? "default",
          build: async (s, c) => (options.world as (s: string, c: Date) => States)(s ?? "default", c),
        }
      : options.world;
  const scenario = options.scenario ?? source.defaultScenario;
  if (source.scenarios.length > 0 && !source.scenarios.includes(scenario)) throw new UnknownScenarioError(scenario, source.scenarios);
  // The state store copies what it is given: no copy here.
  const world = (await source.build(scenario, clock)) as States;
  const lacking = missing(fakes, world);
  if (lacking.length > 0) {
    throw new Error(`[eval-simulate] the world of scenario "${scenario}" holds no state for ${lacking.map((id) => `"${id}"`).join(", ")}`);
  }
  const states = slice(fakes, world);
  return { states, initial: states, scenario };
}
