/**
 * Whether to trace, and where to, read from the standard OpenTelemetry variables: tracing is on
 * when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` is set (and neither
 * `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` turns it off).
 */

/** The OTLP protocols the exporter speaks (gRPC is not among them). */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** Tracing on: where spans go and how. */
export interface TracingConfig {
  /** The full traces URL (`…/v1/traces`). */
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  /** One export's time limit. */
  timeoutMs: number;
  /** How long spans wait in the batch before they are sent (`OTEL_BSP_SCHEDULE_DELAY`, 1 s by default). */
  batchDelayMs: number;
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`, parsed. */
  resource: Record<string, string>;
}

/** The standard default of `OTEL_EXPORTER_OTLP_TIMEOUT`. */
const DEFAULT_TIMEOUT_MS = 10_000;

/** Sooner than the standard 5 s, so a trace shows up while a run is still going. */
const DEFAULT_BATCH_DELAY_MS = 1000;

/**
 * The tracing the environment asks for: a config, or `undefined` with the reason when a variable
 * asks for what cannot be done (a `warning` for the user; tracing then stays off).
 *
 * @example tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, "eval-simulate").config?.url // ".../v1/traces"
 */
export function tracingConfig(env: NodeJS.ProcessEnv, defaultService: string): { config?: TracingConfig; warning?: string } {
  if (/^true$/i.test(env.OTEL_SDK_DISABLED?.trim() ?? "")) return {};
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "otlp").split(",").map((e) => e.trim().toLowerCase());
  if (exporters.includes("none")) return {};
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!signal && !base) return {};
  if (!exporters.includes("otlp")) return { warning: `tracing is off: OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER} (only otlp is supported)` };
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf").trim();
  if (protocol !== "http/protobuf" && protocol !== "http/json")
    return { warning: `tracing is off: the OTLP protocol "${protocol}" is not supported (use http/protobuf or http/json)` };
  // The signal's own endpoint is used as it is; the base one gets the signal's path.
  const url = signal || `${base!.replace(/\/+$/, "")}/v1/traces`;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http");
  } catch {
    return { warning: `tracing is off: the OTLP endpoint "${url}" is not an http(s) URL` };
  }
  const timeout = Number(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT ?? DEFAULT_TIMEOUT_MS);
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY ?? DEFAULT_BATCH_DELAY_MS);
  return {
    config: {
      url,
      protocol,
      headers: { ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS), ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
      timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
      batchDelayMs: Number.isFinite(delay) && delay > 0 ? delay : DEFAULT_BATCH_DELAY_MS,
      serviceName: env.OTEL_SERVICE_NAME?.trim() || defaultService,
      resource: keyValues(env.OTEL_RESOURCE_ATTRIBUTES),
    },
  };
}

/** `k1=v1,k2=v2` with percent-encoded values, as the headers and resource variables are written. */
function keyValues(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    if (key === "") continue;
    out[key] = decode(pair.slice(at + 1).trim());
  }
  return out;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
