/**
 * The runner's spans: one per trial (the root of its trace), per turn of a conversation, per
 * model request (the GenAI client span: `chat {model}`), per tool call the agent made
 * (`execute_tool {tool}`) and the MCP client request it sent (`tools/call {tool}`), whose
 * `traceparent` goes into the request's `_meta` so the fake's server span joins the trace.
 * Each helper returns the no-op span while tracing is off.
 */
import { NO_SPAN, type SpanAttributes, type TraceSpan, tracer } from "./trace-span.js";

/** What a trial span is named by and carries from its start. */
export interface TrialSpanStart {
  case: string;
  iteration: number;
  /** What runs the agent (`script`, `command:<program>`, `provider:model`). */
  host: string;
  suite?: string;
  variant?: string;
}

/** How a trial ended, for its span. */
export interface TrialSpanEnd {
  status: string;
  score?: number;
  reason?: string;
  calls?: number;
  session?: string;
}

/**
 * A trial's span, the root of its trace (`trial {case}`).
 *
 * @example const span = trialSpan({ case: "close-ticket", iteration: 0, host: "script" });
 */
export function trialSpan(trial: TrialSpanStart): TraceSpan {
  if (!tracer().on) return NO_SPAN;
  return tracer().start(`trial ${trial.case}`, {
    kind: "internal",
    attributes: {
      "eval_simulate.case.id": trial.case,
      "eval_simulate.iteration": trial.iteration,
      "eval_simulate.host": trial.host,
      "eval_simulate.suite": trial.suite,
      "eval_simulate.variant": trial.variant,
    },
  });
}

/**
 * Ends a trial's span with its verdict and score; a trial that did not pass is marked failed
 * (`error.type` its status), so a trace view picks it out.
 *
 * @example endTrialSpan(span, { status: line.status, score: line.score });
 */
export function endTrialSpan(span: TraceSpan, end: TrialSpanEnd): void {
  span.set({
    "eval_simulate.verdict": end.status,
    "eval_simulate.score": end.score,
    "eval_simulate.reason": end.reason,
    "eval_simulate.calls": end.calls,
    "eval_simulate.session.id": end.session,
  });
  if (end.status !== "pass" && end.status !== "skipped") span.fail(end.status, end.reason);
  span.end();
}

/**
 * One turn of a conversation (`turn {n}`, from 1), under its trial; model requests and tool
 * calls of the turn go under it.
 *
 * @example const turn = turnSpan(trial.traceparent, 1); ...; turn.end();
 */
export function turnSpan(parent: string | undefined, turn: number, attributes: SpanAttributes = {}): TraceSpan {
  if (!tracer().on) return NO_SPAN;
  return tracer().start(`turn ${turn}`, { kind: "internal", ...(parent ? { parent } : {}), attributes: { "eval_simulate.turn": turn, ...attributes } });
}

/** A model request as the GenAI conventions name it. */
export interface ModelRequestStart {
  /** `gen_ai.provider.name`: openai, anthropic, gcp.gemini, … */
  provider: string;
  model: string;
  temperature?: number;
  maxTokens?: number;
}

/** A model's answer to one request. */
export interface ModelResponseNote {
  model?: string;
  id?: string;
  inputTokens?: number;
  outputTokens?: number;
  finishReason?: string;
}

/**
 * The GenAI client span of one model request (`chat {model}`).
 *
 * @example const span = modelRequestSpan(parent, { provider: "openai", model: "gpt-5" });
 */
export function modelRequestSpan(parent: string | undefined, request: ModelRequestStart): TraceSpan {
  if (!tracer().on) return NO_SPAN;
  return tracer().start(`chat ${request.model}`, {
    kind: "client",
    ...(parent ? { parent } : {}),
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": request.provider,
      "gen_ai.request.model": request.model,
      "gen_ai.request.temperature": request.temperature,
      "gen_ai.request.max_tokens": request.maxTokens,
    },
  });
}

/**
 * Ends a model request's span with what the model answered.
 *
 * @example endModelRequestSpan(span, { inputTokens: 120, outputTokens: 30, finishReason: "tool-calls" });
 */
export function endModelRequestSpan(span: TraceSpan, response: ModelResponseNote): void {
  span.set({
    "gen_ai.response.model": response.model,
    "gen_ai.response.id": response.id,
    "gen_ai.usage.input_tokens": response.inputTokens,
    "gen_ai.usage.output_tokens": response.outputTokens,
    "gen_ai.response.finish_reasons": response.finishReason === undefined ? undefined : [response.finishReason],
  });
  span.end();
}

/** A tool call the agent made, and where it was sent. */
export interface ToolCallStart {
  tool: string;
  /** The fake it went to. */
  server: string;
  callId?: string;
  /** The MCP endpoint's URL, for the client span's `server.address`. */
  url?: string;
}

/**
 * The agent's tool call (`execute_tool {tool}`) and, under it, the MCP request it sends
 * (`tools/call {tool}`, kind CLIENT); put `client.traceparent` in the request's `_meta`.
 *
 * @example const { call, client } = toolCallSpans(parent, { tool: "search", server: "crm" });
 */
export function toolCallSpans(parent: string | undefined, start: ToolCallStart): { call: TraceSpan; client: TraceSpan } {
  if (!tracer().on) return { call: NO_SPAN, client: NO_SPAN };
  const tool = {
    "gen_ai.tool.name": start.tool,
    "gen_ai.tool.call.id": start.callId,
    "gen_ai.operation.name": "execute_tool",
    "eval_simulate.fake.id": start.server,
  };
  const call = tracer().start(`execute_tool ${start.tool}`, { kind: "internal", ...(parent ? { parent } : {}), attributes: tool });
  const url = start.url === undefined ? undefined : safeUrl(start.url);
  const client = tracer().start(`tools/call ${start.tool}`, {
    kind: "client",
    parent: call.traceparent,
    attributes: {
      ...tool,
      "mcp.method.name": "tools/call",
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "server.address": url?.hostname,
      "server.port": url === undefined || url.port === "" ? undefined : Number(url.port),
    },
  });
  return { call, client };
}

/**
 * Ends a tool call's spans: a tool error result marks both (`error.type` `tool_error`), a call
 * that threw with the error's name.
 *
 * @example endToolCallSpans(spans, { isError: outcome.isError });
 */
export function endToolCallSpans(spans: { call: TraceSpan; client: TraceSpan }, end: { isError?: boolean; error?: unknown }): void {
  for (const span of [spans.client, spans.call]) {
    if (end.error !== undefined)
      span.fail(end.error instanceof Error ? end.error.name : "Error", end.error instanceof Error ? end.error.message : String(end.error));
    else if (end.isError) span.fail("tool_error", "the tool answered an error result");
    span.end();
  }
}

function safeUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
