/**
 * A model provider on loopback that answers from a script: OpenAI's chat completions
 * (`/v1/chat/completions`, for the openai and openai-compatible packages) and Anthropic's
 * messages (`/v1/messages`). The real provider packages talk to it over HTTP, so tests exercise
 * their wire formats, errors and retries without the internet or a key. Structured-output
 * requests (OpenAI's `response_format`, Anthropic's `output_config.format` or its `json` tool)
 * are answered with `{ json }` in the channel the request asked for. OpenAI's responses
 * (`/v1/responses`) and streamed requests (`stream: true`, any of the three) are answered with
 * text and tool calls as the engine's scripted model answers frame them (engine/serve/models/).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { scriptedAnswer } from "../../engine/serve/models/index.js";

export type ScriptedReply =
  /** Tool calls; `argumentsText` sends arguments as given, JSON or not. */
  | { toolCalls: Array<{ name: string; arguments?: unknown; argumentsText?: string }>; usage?: { input: number; output: number } }
  | { text: string; usage?: { input: number; output: number } }
  /**
   * A structured answer: `json` as the value the request's schema asked for, `jsonText` as text
   * sent as it is (malformed, say), each in the channel the request asked for.
   */
  | { json: unknown; usage?: { input: number; output: number } }
  | { jsonText: string; usage?: { input: number; output: number } }
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /**
   * An endpoint that never finishes: `silent` sends nothing at all, `drip` a 200 and then a byte
   * of its body a second, `idle` a 200 and the body's first bytes, then nothing.
   */
  | { stall: "silent" | "drip" | "idle" };

export interface ScriptedRequest {
  api: "openai" | "anthropic";
  /** The request body as the provider package sent it. */
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** The tool results the agent sent back in this request, newest last (their text). */
  toolResults: string[];
  /** How the request asked for structured output, and the schema it sent, if it did. */
  structured?: { channel: "response_format" | "output_format" | "json_tool"; schema?: unknown };
  /** The text of the request's system and user messages, joined (what a judge was shown). */
  text: string;
}

export interface ScriptedProvider {
  /** `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  requests: ScriptedRequest[];
  /** Requests being answered now (counted from arrival to the answer's end), and the most at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  close(): Promise<void>;
}

export interface ScriptedProviderOptions {
  /** Each answer waits this long before it is sent (the shape of a real model's latency). */
  delayMs?: number;
  /** The `created` stamp of answers (seconds): fixed, so the same script answers the same bytes. Now by default. */
  created?: number;
}

function toolResultsOf(api: ScriptedRequest["api"], body: Record<string, unknown>): string[] {
  const messages = (body.messages ?? []) as Array<Record<string, unknown>>;
  // OpenAI's responses API sends its tool results as `function_call_output` items of `input`.
  if (api === "openai" && Array.isArray(body.input))
    return (body.input as Array<Record<string, unknown>>).filter((item) => item.type === "function_call_output").map((item) => String(item.output));
  if (api === "openai") return messages.filter((m) => m.role === "tool").map((m) => String(m.content));
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []))
    .filter((block) => block.type === "tool_result")
    .map((block) => (Array.isArray(block.content) ? (block.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("") : String(block.content)));
}

function structuredOf(api: ScriptedRequest["api"], body: Record<string, unknown>): ScriptedRequest["structured"] {
  if (api === "openai") {
    const format = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
    return format && format.type !== "text" ? { channel: "response_format", schema: format.json_schema?.schema } : undefined;
  }
  const output = (body.output_config as { format?: { schema?: unknown } } | undefined)?.format;
  if (output) return { channel: "output_format", schema: output.schema };
  const tool = ((body.tools ?? []) as Array<{ name?: string; input_schema?: unknown }>).find((t) => t.name === "json");
  return tool ? { channel: "json_tool", schema: tool.input_schema } : undefined;
}

function textOfRequest(body: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (content: unknown) => {
    if (typeof content === "string") parts.push(content);
    else if (Array.isArray(content)) for (const part of content as Array<{ text?: unknown }>) if (typeof part?.text === "string") parts.push(part.text);
  };
  add(body.system);
  for (const m of (body.messages ?? []) as Array<{ role?: string; content?: unknown }>) if (m.role === "system" || m.role === "user") add(m.content);
  return parts.join("\n");
}

/**
 * Starts the provider; `script` answers each request (it may look at the request and count).
 *
 * @example const provider = await startScriptedProvider(() => ({ text: "done" }));
 */
export async function startScriptedProvider(
  script: (request: ScriptedRequest, index: number) => ScriptedReply,
  options: ScriptedProviderOptions = {},
): Promise<ScriptedProvider> {
  const requests: ScriptedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const drips = new Set<NodeJS.Timeout>();
  let ids = 0;
  const server: Server = createServer(async (req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let counted = true;
    const done = () => void (counted && ((counted = false), inFlight--));
    res.on("close", done);
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const api = req.url?.endsWith("/messages") ? "anthropic" : "openai";
    const body = JSON.parse(raw || "{}") as Record<string, unknown>;
    const structured = structuredOf(api, body);
    const request: ScriptedRequest = {
      api,
      body,
      headers: req.headers,
      toolResults: toolResultsOf(api, body),
      text: textOfRequest(body),
      ...(structured ? { structured } : {}),
    };
    requests.push(request);
    const reply = script(request, requests.length - 1);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    // JSON texts written into the answer as they are (nested deeper than JSON.stringify goes).
    const raws: string[] = [];
    const rawJson = (text: string) => `\u0000raw${raws.push(text) - 1}`;
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(value).replace(/"\\u0000raw(\d+)"/g, (_whole, index: string) => raws[Number(index)]!));
    };
    if ("stall" in reply) {
      if (reply.stall === "silent") return;
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
      if (reply.stall === "drip") drips.add(setInterval(() => res.write(" "), 1000));
      return;
    }
    if ("status" in reply) return send(reply.status, reply.body ?? { error: { message: `scripted ${reply.status}`, type: "scripted_error" } }, reply.headers);
    const usage = reply.usage ?? { input: 100, output: 20 };
    const created = options.created ?? Math.floor(Date.now() / 1000);
    const responses = req.url?.endsWith("/responses") === true;
    if ((responses || body.stream === true) && ("text" in reply || "toolCalls" in reply)) {
      const answer = scriptedAnswer(
        api === "anthropic" ? "messages" : responses ? "responses" : "chat",
        { ...("text" in reply ? { text: reply.text } : { toolCalls: reply.toolCalls }), usage },
        {
          n: requests.length,
          model: String(body.model),
          created,
          stream: body.stream === true,
          includeUsage: (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
        },
      );
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
      return;
    }
    const model = String(body.model);
    if ("json" in reply || "jsonText" in reply) {
      const text = "jsonText" in reply ? reply.jsonText : JSON.stringify(reply.json);
      if (api === "openai") {
        return send(200, {
          id: `chatcmpl-${++ids}`,
          object: "chat.completion",
          created,
          model,
          choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
          usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
        });
      }
      const parses = (() => {
        try {
          return (JSON.parse(text), true);
        } catch {
          return false;
        }
      })();
      const content =
        structured?.channel === "json_tool"
          ? [{ type: "tool_use", id: `toolu_${++ids}`, name: "json", input: parses ? rawJson(text) : text }]
          : [{ type: "text", text }];
      return send(200, {
        id: `msg_${++ids}`,
        type: "message",
        role: "assistant",
        model,
        content,
        stop_reason: structured?.channel === "json_tool" ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      });
    }
    if (api === "openai") {
      const message =
        "toolCalls" in reply
          ? {
              role: "assistant",
              content: null,
              tool_calls: reply.toolCalls.map((call) => ({
                id: `call_${++ids}`,
                type: "function",
                function: { name: call.name, arguments: call.argumentsText ?? JSON.stringify(call.arguments) },
              })),
            }
          : { role: "assistant", content: reply.text };
      return send(200, {
        id: `chatcmpl-${++ids}`,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message, finish_reason: "toolCalls" in reply ? "tool_calls" : "stop" }],
        usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      });
    }
    const content =
      "toolCalls" in reply
        ? reply.toolCalls.map((call) => ({
            type: "tool_use",
            id: `toolu_${++ids}`,
            name: call.name,
            input: call.argumentsText === undefined ? call.arguments : rawJson(call.argumentsText),
          }))
        : [{ type: "text", text: reply.text }];
    return send(200, {
      id: `msg_${++ids}`,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: "toolCalls" in reply ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const drip of drips) clearInterval(drip);
        server.close(() => resolve());
        // Stalled answers are never finished: their connections are cut.
        server.closeAllConnections();
      }),
  };
}
