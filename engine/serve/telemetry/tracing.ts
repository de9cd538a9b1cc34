/**
 * Turning tracing on for a process and off again: `startTracing` reads the standard variables
 * and, only when they ask for it, loads the SDK (`otel-tracer.ts`) and installs its tracer;
 * `stopTracing` sends what is left within a bounded wait, so neither a slow nor an unreachable
 * collector can hold a run or a sidecar's exit.
 */
import { join } from "node:path";
import { packageRoot } from "../../author/manifest/index.js";
import { installTracer, type Tracer } from "./trace-span.js";
import { tracingConfig } from "./tracing-env.js";

/** What `otel-tracer.ts` gives (said here, not imported: that file is loaded only by import()). */
interface OtelTracing {
  tracer: Tracer;
  shutdown(): Promise<void>;
}

/** How long stopping waits for the last spans to be sent, at most. */
export const FLUSH_LIMIT_MS = 3000;

let running: Promise<OtelTracing | undefined> | undefined;

/** What `startTracing` did: whether tracing is on, and why not when a variable was not usable. */
export interface TracingStart {
  on: boolean;
  warning?: string;
}

/**
 * Turns tracing on when the environment asks for it (`OTEL_EXPORTER_OTLP_ENDPOINT` and the rest);
 * calling it again does nothing. Never throws: tracing that cannot start stays off, with a warning.
 *
 * @example const { warning } = await startTracing(process.env, "eval-simulate"); if (warning) console.error(warning);
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env, defaultService = "eval-simulate"): Promise<TracingStart> {
  if (running) return { on: (await running) !== undefined };
  const { config, warning } = tracingConfig(env, defaultService);
  if (!config) return warning === undefined ? { on: false } : { on: false, warning: `[eval-simulate] ${warning}` };
  running = (async () => {
    try {
      const { otelTracing } = await import("./otel-tracer.js");
      const tracing = otelTracing(config, { name: "eval-simulate", version: await packageVersion() });
      installTracer(tracing.tracer);
      return tracing;
    } catch {
      return undefined;
    }
  })();
  const on = (await running) !== undefined;
  return on ? { on } : { on, warning: "[eval-simulate] tracing is off: the OpenTelemetry SDK could not be loaded" };
}

/**
 * Sends the spans still batched and turns tracing off, waiting at most `limitMs` (3 s by
 * default). Never throws: a collector that does not answer loses those spans, not the run.
 * Resolves false when the spans could not all be sent in time: the exporter may then hold a
 * request open (up to its timeout), so a command exits on its own rather than wait for it.
 *
 * @example if (!(await stopTracing())) setTimeout(() => process.exit(), 10).unref();
 */
export async function stopTracing(limitMs = FLUSH_LIMIT_MS): Promise<boolean> {
  const started = running;
  running = undefined;
  const tracing = await started;
  installTracer(undefined);
  if (!tracing) return true;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), limitMs);
    timer.unref();
  });
  const sent = await Promise.race([
    tracing.shutdown().then(
      () => true,
      () => false,
    ),
    limit,
  ]);
  clearTimeout(timer);
  return sent;
}

/** The package's version, for the instrumentation scope: from source and from dist/ alike. */
async function packageVersion(): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  try {
    const found = JSON.parse(await readFile(join(packageRoot(), "package.json"), "utf8")) as { version?: string };
    if (found.version) return found.version;
  } catch {
    // No package.json to read: the scope still needs a version.
  }
  return "0.0.0";
}
