import { existsSync, readFileSync } from "node:fs";
import type { States } from "../runtime/index.js";
import { withStateLog } from "../../core/record/index.js";
import { fakeList, type FakesInput, type WorldOption } from "../../author/fakes/index.js";
import { runDirOptions, startRunDir } from "./run-dir.js";
import { httpLimitsFromEnv } from "../http/index.js";
import type { ServicesOptions } from "./starting-states.js";
import { watchParent } from "./parent-watch.js";
import { type Services, startServices } from "./start-services.js";
import { positiveInteger } from "../http/index.js";
import { stopTracing } from "../telemetry/index.js";

/** How long a stopping sidecar waits for open connections before it exits anyway. */
const STOP_GRACE_MS = 3000;

/** The sidecar's port when none is set: the same in every Recipe, so trials can bind `http://fakes:7353/<id>/mcp`. */
export const SIDECAR_PORT = 7353;

/** A state file to resume from, with its log's commits applied (a run that was killed left one). */
function readStates(file: string, what: string): States {
  if (!existsSync(file)) throw new Error(`[eval-simulate] ${what} ${file} does not exist`);
  const text = readFileSync(file, "utf8");
  let states: States;
  try {
    states = JSON.parse(text) as States;
  } catch (error) {
    throw new Error(`[eval-simulate] ${what} ${file} is not JSON: ${(error as Error).message}`);
  }
  if (typeof states !== "object" || states === null || Array.isArray(states))
    throw new Error(`[eval-simulate] ${what} ${file} is not an object of fakes by id`);
  return withStateLog(file, text, states) as States;
}

function port(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`[eval-simulate] EVAL_SIMULATE_PORT must be a port number, not "${value}"`);
  return n;
}

const journalLimit = (value: string | undefined) => positiveInteger(value, "EVAL_SIMULATE_JOURNAL_LIMIT");

/**
 * The sidecar's options from its environment (SPEC §9): `EVAL_SIMULATE_FAKES` (a comma list:
 * serve only those), `EVAL_SIMULATE_SCENARIO`, `_PORT`
 * (7353), `_HOST` (0.0.0.0), `_CLOCK`, `_STATE_FILE`, `_INITIAL_STATE_FILE`,
 * `_RESUME_STATE_FILE`, `_RECORD`, `_MANIFEST_DIR`, `_RUN_DIR`, `_ADMIN_TOKEN`, `_JOURNAL_LIMIT`, `_ALLOWED_ORIGINS`
 * and `_ALLOWED_HOSTS` (comma lists), `_INSPECT`, `_STATE_DIR`, `_MAX_SESSIONS`, `_MAX_WORLD_BYTES`, `_MAX_IN_FLIGHT`, `_STALL_TIMEOUT_MS`,
 * `_REQUEST_TIMEOUT_MS`. Explicit options win over the environment.
 *
 * @example const options = sidecarOptions(process.env, { port: 8080 });
 */
export function sidecarOptions(env: NodeJS.ProcessEnv, overrides: ServicesOptions & { resumeStateFile?: string; runDir?: string } = {}): ServicesOptions {
  const pick = <K extends keyof ServicesOptions>(key: K, variable: string): ServicesOptions[K] =>
    overrides[key] ?? ((env[variable] || undefined) as ServicesOptions[K]);
  const options: ServicesOptions = {
    // Empty is unset, as for every variable here (a compose file's `${FAKES:-}`): every fake.
    ...(overrides.fakes !== undefined ? { fakes: overrides.fakes } : env.EVAL_SIMULATE_FAKES ? { fakes: fakeList(env.EVAL_SIMULATE_FAKES) } : {}),
    scenario: pick("scenario", "EVAL_SIMULATE_SCENARIO"),
    clock: pick("clock", "EVAL_SIMULATE_CLOCK"),
    port: overrides.port ?? port(env.EVAL_SIMULATE_PORT) ?? SIDECAR_PORT,
    host: pick("host", "EVAL_SIMULATE_HOST") ?? "0.0.0.0",
    stateFile: pick("stateFile", "EVAL_SIMULATE_STATE_FILE"),
    initialStateFile: pick("initialStateFile", "EVAL_SIMULATE_INITIAL_STATE_FILE"),
    record: pick("record", "EVAL_SIMULATE_RECORD"),
    manifestDir: pick("manifestDir", "EVAL_SIMULATE_MANIFEST_DIR"),
    adminToken: pick("adminToken", "EVAL_SIMULATE_ADMIN_TOKEN"),
    journalLimit: overrides.journalLimit ?? journalLimit(env.EVAL_SIMULATE_JOURNAL_LIMIT),
    allowedOrigins: overrides.allowedOrigins ?? (env.EVAL_SIMULATE_ALLOWED_ORIGINS ? [env.EVAL_SIMULATE_ALLOWED_ORIGINS] : undefined),
    allowedHosts: overrides.allowedHosts ?? (env.EVAL_SIMULATE_ALLOWED_HOSTS ? [env.EVAL_SIMULATE_ALLOWED_HOSTS] : undefined),
    inspect: overrides.inspect ?? (env.EVAL_SIMULATE_INSPECT === "1" || env.EVAL_SIMULATE_INSPECT === "true"),
    inspectResults: pick("inspectResults", "EVAL_SIMULATE_INSPECT_RESULTS"),
    stateDir: pick("stateDir", "EVAL_SIMULATE_STATE_DIR"),
    maxSessions: overrides.maxSessions ?? positiveInteger(env.EVAL_SIMULATE_MAX_SESSIONS, "EVAL_SIMULATE_MAX_SESSIONS"),
    maxWorldBytes: overrides.maxWorldBytes ?? positiveInteger(env.EVAL_SIMULATE_MAX_WORLD_BYTES, "EVAL_SIMULATE_MAX_WORLD_BYTES"),
    http: { ...httpLimitsFromEnv(env), ...overrides.http },
  };
  // Only what is set is passed on, so the library's defaults stay the defaults.
  for (const key of ["sessionTtlSeconds", "sessionSweepMs"] as const) if (overrides[key] !== undefined) options[key] = overrides[key];
  if (overrides.inspectResultsReader) options.inspectResultsReader = overrides.inspectResultsReader;
  // A run folder (`EVAL_SIMULATE_RUN_DIR`) names the record, state files and manifest dir at once; a file set on its own wins.
  const runDir = overrides.runDir ?? (env.EVAL_SIMULATE_RUN_DIR || undefined);
  if (runDir) {
    const files = runDirOptions(runDir);
    options.record ??= files.record;
    options.initialStateFile ??= files.initialStateFile;
    options.stateFile ??= files.stateFile;
    options.manifestDir ??= files.manifestDir;
  }
  const resumeFile = overrides.resumeStateFile ?? (env.EVAL_SIMULATE_RESUME_STATE_FILE || undefined);
  if (overrides.resume) options.resume = overrides.resume;
  else if (resumeFile) {
    const states = readStates(resumeFile, "the state file to resume");
    // The run being continued began from its initial state file; without one, from these states.
    const initial = options.initialStateFile && existsSync(options.initialStateFile) ? readStates(options.initialStateFile, "the initial state file") : states;
    options.resume = { states, initial };
  }
  if (runDir) startRunDir(runDir, options);
  return options;
}

/**
 * Serves fakes as a sidecar: settings from the environment, every fake on 0.0.0.0:7353 by
 * default, stopping cleanly (state file flushed) on SIGTERM or SIGINT, as PID 1 in a container
 * too, and when the npm process that started it (`npx eval-simulate serve`) goes away.
 *
 * @example
 * const { fakes, world } = await loadFakes("fakes.yaml");
 * await serveSidecar(fakes, world);
 */
export async function serveSidecar(
  fakes: FakesInput,
  world: WorldOption,
  overrides: ServicesOptions & { resumeStateFile?: string; runDir?: string } = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<Services> {
  const services = await startServices(fakes, { world, ...sidecarOptions(env, overrides) });
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    // A client holding a connection open must not keep a container waiting for its kill timeout:
    // past the grace period the process exits anyway (every acknowledged commit is already in the state file's log).
    setTimeout(() => process.exit(code), STOP_GRACE_MS).unref();
    // The last spans are sent within a bounded wait (stopTracing), then the process exits.
    services.close().then(
      () => stopTracing().then(() => process.exit(code)),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", () => stop(0));
  process.once("SIGINT", () => stop(130));
  watchParent(() => stop(0), { env });
  return services;
}
