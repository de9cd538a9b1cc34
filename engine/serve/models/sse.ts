/**
 * Server-sent events as the providers frame them: `event: <type>\ndata: <json>\n\n` (Anthropic,
 * OpenAI's responses), or `data: <json>\n\n` ending in `data: [DONE]` (OpenAI's chat completions).
 */

/** One event: its `event:` line when the provider names events, and its data. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/**
 * The events as one SSE body, each JSON on one `data:` line.
 *
 * @example sseText([{ data: { a: 1 } }], true) // 'data: {"a":1}\n\ndata: [DONE]\n\n'
 */
export function sseText(events: readonly SseEvent[], done = false): string {
  let text = "";
  for (const { event, data } of events) text += `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
  return done ? `${text}data: [DONE]\n\n` : text;
}

/** The headers a provider's stream is answered with. */
export const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } as const;

/**
 * A streamed answer: the SSE body, sent event by event.
 *
 * @example sseResponse([{ event: "message_stop", data: { type: "message_stop" } }])
 */
export function sseResponse(events: readonly SseEvent[], done = false): Response {
  const chunks = sseText(events, done)
    .split(/(?<=\n\n)/)
    .filter((chunk) => chunk !== "");
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
