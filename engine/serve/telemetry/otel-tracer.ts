/**
 * The tracer on OpenTelemetry's JS SDK: spans batched and sent over OTLP/HTTP (protobuf or JSON)
 * to the configured collector. Imported only by `startTracing`, and only when tracing is on, so
 * a run without it never loads the SDK.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, type Context, type Span } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { SpanAttributes, SpanKind as Kind, SpanOptions, TraceSpan, Tracer } from "./trace-span.js";
import type { TracingConfig } from "./tracing-env.js";

/** The longest span name exported (a tool's name is in it); longer ones are cut. */
const MAX_NAME_LENGTH = 256;

/** The longest attribute value exported; longer ones are cut. */
const MAX_ATTRIBUTE_LENGTH = 1024;

const KINDS: Record<Kind, SpanKind> = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL };

/** An SDK-backed tracer and the provider to flush and stop. */
export interface OtelTracing {
  tracer: Tracer;
  /** Sends what is batched and stops the exporter. */
  shutdown(): Promise<void>;
}

/**
 * The SDK's tracer provider for `config`, named after the package.
 *
 * @example const { tracer, shutdown } = otelTracing(config, { name: "eval-simulate", version: "0.1.0" });
 */
export function otelTracing(config: TracingConfig, scope: { name: string; version: string }): OtelTracing {
  const options = { url: config.url, headers: config.headers, timeoutMillis: config.timeoutMs };
  const exporter = config.protocol === "http/json" ? new JsonExporter(options) : new ProtobufExporter(options);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ ...config.resource, "service.name": config.serviceName }),
    // A client names tools and sends ids: what it sends is cut, never exported at any length.
    spanLimits: { attributeValueLengthLimit: MAX_ATTRIBUTE_LENGTH, attributeCountLimit: 64 },
    // Bounded: past the queue spans are dropped, never waited for.
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: config.batchDelayMs,
        exportTimeoutMillis: config.timeoutMs,
        maxQueueSize: 2048,
        maxExportBatchSize: 512,
      }),
    ],
  });
  const sdk = provider.getTracer(scope.name, scope.version);
  const propagator = new W3CTraceContextPropagator();
  const parentOf = (options: SpanOptions): Context => {
    if (!options.parent) return ROOT_CONTEXT;
    const carrier: Record<string, string> = { traceparent: options.parent, ...(options.tracestate ? { tracestate: options.tracestate } : {}) };
    return propagator.extract(ROOT_CONTEXT, carrier, { get: (c, key) => c[key], keys: (c) => Object.keys(c) });
  };
  return {
    tracer: {
      on: true,
      start(name, options = {}) {
        const span = sdk.startSpan(
          name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}…` : name,
          { kind: KINDS[options.kind ?? "internal"], attributes: defined(options.attributes) },
          parentOf(options),
        );
        return wrap(span);
      },
    },
    shutdown: () => provider.shutdown(),
  };
}

function wrap(span: Span): TraceSpan {
  const context = span.spanContext();
  const flags = (context.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? "01" : "00";
  return {
    traceId: context.traceId,
    traceparent: `00-${context.traceId}-${context.spanId}-${flags}`,
    set: (attributes) => void span.setAttributes(defined(attributes)),
    rename: (name) => void span.updateName(name),
    fail(errorType, message) {
      span.setAttribute("error.type", errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, ...(message !== undefined ? { message } : {}) });
    },
    end: () => span.end(),
  };
}

/** The attributes with a value: the SDK warns of undefined ones. */
function defined(attributes: SpanAttributes | undefined): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [key, value] of Object.entries(attributes ?? {})) if (value !== undefined) out[key] = value as string | number | boolean | string[];
  return out;
}
