/**
 * The tracer every instrumented site talks to: a small facade over OpenTelemetry's, so a site
 * costs one check of `tracer().on` while tracing is off, and the SDK (loaded by `startTracing`,
 * `tracing.ts`) is never imported unless it is on.
 */

/** Attribute values as OpenTelemetry takes them; undefined ones are left out. */
export type SpanAttributes = Record<string, string | number | boolean | readonly string[] | undefined>;

/** The span kinds the conventions used here name. */
export type SpanKind = "server" | "client" | "internal";

/** How a span starts: its kind, attributes and the W3C trace context it continues, if any. */
export interface SpanOptions {
  kind?: SpanKind;
  attributes?: SpanAttributes;
  /** A W3C `traceparent` to continue (the client's, or a span of this process); a root span without one. */
  parent?: string;
  /** The `tracestate` sent with `parent`. */
  tracestate?: string;
}

/** One span being recorded. Every method is safe to call after `end` (it does nothing). */
export interface TraceSpan {
  /** The trace's id (32 hex digits); `""` when tracing is off. */
  readonly traceId: string;
  /** This span as a W3C `traceparent`, to hand to what it calls; `""` when tracing is off. */
  readonly traceparent: string;
  set(attributes: SpanAttributes): void;
  /** Names the span again, when what names it (a route, say) is known only later. */
  rename(name: string): void;
  /** Marks the span failed: `error.type` and an error status with `message`. */
  fail(errorType: string, message?: string): void;
  end(): void;
}

/** Starts spans; `on` is false for the no-op tracer, so sites can skip building attributes. */
export interface Tracer {
  readonly on: boolean;
  start(name: string, options?: SpanOptions): TraceSpan;
}

/** The span of the no-op tracer: records nothing. */
export const NO_SPAN: TraceSpan = Object.freeze({
  traceId: "",
  traceparent: "",
  set: () => {},
  rename: () => {},
  fail: () => {},
  end: () => {},
});

const NO_TRACER: Tracer = Object.freeze({ on: false, start: () => NO_SPAN });

let current: Tracer = NO_TRACER;

/**
 * The process's tracer: OpenTelemetry's once `startTracing` turned it on, else a no-op one.
 *
 * @example const span = tracer().on ? tracer().start("tools/call search", { kind: "server" }) : NO_SPAN;
 */
export function tracer(): Tracer {
  return current;
}

/** Installs the tracer `startTracing` built (or the no-op one again when it stops). */
export function installTracer(next: Tracer | undefined): void {
  current = next ?? NO_TRACER;
}
