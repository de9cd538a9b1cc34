/**
 * A scripted model answer (text, tool calls) as each provider sends it: OpenAI's chat completion
 * and response objects, Anthropic's message, each as one JSON body or as the provider's stream of
 * events, in the order and framing the providers use. Ids come from the request's number, never
 * from a clock or a random source, so the same script answers the same bytes every run.
 */
import type { ModelApi } from "./model-calls.js";
import { type SseEvent, sseResponse } from "./sse.js";

/** One answer of a case's `models.script`. */
export interface ScriptedAnswer {
  text?: string;
  toolCalls?: ReadonlyArray<{ name: string; arguments?: unknown }>;
  usage?: { input: number; output: number };
}

/** What an answer's ids and stamps are made from. */
export interface AnswerContext {
  /** The request's number in its trial, from 1. */
  n: number;
  /** The model the request named. */
  model: string;
  /** Seconds since the epoch stamped on the answer (the trial's clock). */
  created: number;
  stream: boolean;
  /** OpenAI's `stream_options.include_usage`: a last chunk with the usage. */
  includeUsage?: boolean;
}

const json = (value: unknown) => new Response(`${JSON.stringify(value)}\n`, { status: 200, headers: { "content-type": "application/json" } });

const calls = (answer: ScriptedAnswer, n: number) =>
  (answer.toolCalls ?? []).map((call, i) => ({ id: `call_es${n}_${i}`, name: call.name, args: JSON.stringify(call.arguments ?? {}) }));

const usageOf = (answer: ScriptedAnswer) => answer.usage ?? { input: 10, output: 5 };

function chatAnswer(answer: ScriptedAnswer, at: AnswerContext): Response {
  const usage = usageOf(answer);
  const tools = calls(answer, at.n);
  const finish = tools.length > 0 ? "tool_calls" : "stop";
  const head = { id: `chatcmpl-es${at.n}`, object: at.stream ? "chat.completion.chunk" : "chat.completion", created: at.created, model: at.model };
  const totals = { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output };
  if (!at.stream) {
    const toolCalls = tools.map((t) => ({ id: t.id, type: "function", function: { name: t.name, arguments: t.args } }));
    const message = { role: "assistant", content: answer.text ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
    return json({ ...head, choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage: totals });
  }
  const chunk = (delta: unknown, finishReason: string | null = null): SseEvent => ({
    data: { ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] },
  });
  const events: SseEvent[] = [chunk({ role: "assistant", content: "" })];
  if (answer.text !== undefined) events.push(chunk({ content: answer.text }));
  tools.forEach((t, index) => {
    events.push(chunk({ tool_calls: [{ index, id: t.id, type: "function", function: { name: t.name, arguments: "" } }] }));
    events.push(chunk({ tool_calls: [{ index, function: { arguments: t.args } }] }));
  });
  events.push(chunk({}, finish));
  if (at.includeUsage) events.push({ data: { ...head, choices: [], usage: totals } });
  return sseResponse(events, true);
}

function responsesAnswer(answer: ScriptedAnswer, at: AnswerContext): Response {
  const usage = usageOf(answer);
  const message =
    answer.text === undefined
      ? []
      : [
          {
            id: `msg_es${at.n}`,
            type: "message",
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: answer.text, annotations: [] }],
          },
        ];
  const functions = calls(answer, at.n).map((t, i) => ({
    id: `fc_es${at.n}_${i}`,
    type: "function_call",
    status: "completed",
    arguments: t.args,
    call_id: t.id,
    name: t.name,
  }));
  const output = [...message, ...functions];
  const response = (status: string, items: unknown[], withUsage: boolean) => ({
    id: `resp_es${at.n}`,
    object: "response",
    created_at: at.created,
    status,
    error: null,
    incomplete_details: null,
    model: at.model,
    output: items,
    usage: withUsage
      ? {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.output,
        }
      : null,
  });
  if (!at.stream) return json(response("completed", output, true));
  const events: SseEvent[] = [];
  const add = (type: string, data: Record<string, unknown>) => events.push({ event: type, data: { type, sequence_number: events.length, ...data } });
  add("response.created", { response: response("in_progress", [], false) });
  add("response.in_progress", { response: response("in_progress", [], false) });
  output.forEach((item, output_index) => {
    if (item.type === "message") {
      const text = answer.text ?? "";
      const part = { type: "output_text", text: "", annotations: [] };
      add("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      add("response.content_part.added", { item_id: item.id, output_index, content_index: 0, part });
      add("response.output_text.delta", { item_id: item.id, output_index, content_index: 0, delta: text, logprobs: [] });
      add("response.output_text.done", { item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
      add("response.content_part.done", { item_id: item.id, output_index, content_index: 0, part: { ...part, text } });
    } else {
      const call = item as (typeof functions)[number];
      add("response.output_item.added", { output_index, item: { ...call, status: "in_progress", arguments: "" } });
      add("response.function_call_arguments.delta", { item_id: call.id, output_index, delta: call.arguments });
      add("response.function_call_arguments.done", { item_id: call.id, output_index, arguments: call.arguments });
    }
    add("response.output_item.done", { output_index, item });
  });
  add("response.completed", { response: response("completed", output, true) });
  return sseResponse(events);
}

function messagesAnswer(answer: ScriptedAnswer, at: AnswerContext): Response {
  const usage = usageOf(answer);
  const tools = calls(answer, at.n);
  const stop = tools.length > 0 ? "tool_use" : "end_turn";
  const content = [
    ...(answer.text === undefined ? [] : [{ type: "text", text: answer.text }]),
    ...tools.map((t, i) => ({ type: "tool_use", id: `toolu_es${at.n}_${i}`, name: t.name, input: answer.toolCalls![i]!.arguments ?? {} })),
  ];
  const head = { id: `msg_es${at.n}`, type: "message", role: "assistant", model: at.model };
  if (!at.stream) return json({ ...head, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: usage.output } });
  const events: SseEvent[] = [];
  const add = (type: string, data: Record<string, unknown> = {}) => events.push({ event: type, data: { type, ...data } });
  add("message_start", { message: { ...head, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: 1 } } });
  content.forEach((block, index) => {
    if (block.type === "text") {
      add("content_block_start", { index, content_block: { type: "text", text: "" } });
      add("content_block_delta", { index, delta: { type: "text_delta", text: (block as { text: string }).text } });
    } else {
      const use = block as { id: string; name: string; input: unknown };
      add("content_block_start", { index, content_block: { type: "tool_use", id: use.id, name: use.name, input: {} } });
      add("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(use.input) } });
    }
    add("content_block_stop", { index });
  });
  add("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } });
  add("message_stop");
  return sseResponse(events);
}

/**
 * A scripted answer as the API the request spoke answers it.
 *
 * @example scriptedAnswer("chat", { text: "Done." }, { n: 1, model: "gpt-x", created: 0, stream: false })
 */
export function scriptedAnswer(api: ModelApi, answer: ScriptedAnswer, at: AnswerContext): Response {
  if (api === "chat") return chatAnswer(answer, at);
  if (api === "responses") return responsesAnswer(answer, at);
  return messagesAnswer(answer, at);
}
