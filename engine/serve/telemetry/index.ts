/**
 * engine/serve/telemetry/: traces in OpenTelemetry's format, for the fakes and the runner both.
 * A no-op tracer unless the standard variables turn tracing on (`tracing-env.ts`); then
 * `startTracing` loads the official SDK on demand and sends spans over OTLP/HTTP, protobuf or
 * JSON (`otel-tracer.ts`, imported by nothing else), and `stopTracing` flushes within a bounded
 * wait (`tracing.ts`). The tracer facade every site calls (`trace-span.ts`); the spans after the
 * semantic conventions: MCP server spans parented on `params._meta.traceparent`
 * (`mcp-spans.ts`), HTTP server spans for API fakes (`http-spans.ts`), and the runner's trial,
 * turn, GenAI model request and tool call spans (`agent-spans.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { endModelRequestSpan, endToolCallSpans, endTrialSpan, modelRequestSpan, toolCallSpans, trialSpan, turnSpan } from "./agent-spans.js";
export type { ModelRequestStart, ModelResponseNote, ToolCallStart, TrialSpanEnd, TrialSpanStart } from "./agent-spans.js";
export { traceApiRequest } from "./http-spans.js";
export type { ApiCallNote } from "./http-spans.js";
export { noteMcpCall, traceMcpRequest } from "./mcp-spans.js";
export type { McpCallNote } from "./mcp-spans.js";
export { NO_SPAN, tracer } from "./trace-span.js";
export type { SpanAttributes, SpanKind, SpanOptions, TraceSpan, Tracer } from "./trace-span.js";
export { FLUSH_LIMIT_MS, startTracing, stopTracing } from "./tracing.js";
export type { TracingStart } from "./tracing.js";
export { tracingConfig } from "./tracing-env.js";
export type { OtlpProtocol, TracingConfig } from "./tracing-env.js";
