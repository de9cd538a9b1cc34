/**
 * A server span per MCP request a fake answers, after the MCP semantic conventions: named
 * `{mcp.method.name} {target}` (`tools/call search_issues`), kind SERVER, continuing the trace
 * context the client sent in `params._meta.traceparent` (else the HTTP `traceparent` header).
 * The fake adds what only it knows: its id, the session, whether the call wrote and its commit.
 */
import { sessionIdOf, splitAddress } from "../sessions/index.js";
import { type TraceSpan, tracer } from "./trace-span.js";

/** How one tools/call went in the fake, as the host's pipeline tells it. */
export interface McpCallNote {
  tool: string;
  /** True when the call committed a change to the world. */
  committed: boolean;
  /** The commit's number in the world, when it committed. */
  commitSeq?: number;
  isError: boolean;
  stub?: string;
}

interface OpenSpan {
  span: TraceSpan;
  method: string;
  tool?: string;
  noted: boolean;
}

/** The spans of the requests being answered, by HTTP request, for `noteMcpCall`. */
const open = new WeakMap<Request, OpenSpan[]>();

/** The first bytes of an answer read for a JSON-RPC error code: enough for the envelope. */
const PEEK_BYTES = 4096;

/**
 * Answers one HTTP request to an MCP fake inside a server span per JSON-RPC request it carries,
 * each ended when its answer has been written (a streamed answer included). With tracing off it
 * only runs `answer`.
 *
 * @example return traceMcpRequest("notes", request, parsed?.parsedBody, () => handler.fetch(request, parsed));
 */
export async function traceMcpRequest(fake: string, request: Request, body: unknown, answer: () => Promise<Response>): Promise<Response> {
  if (!tracer().on) return answer();
  const spans = startSpans(fake, request, body);
  if (spans.length === 0) return answer();
  open.set(request, spans);
  let response: Response;
  try {
    response = await answer();
  } catch (error) {
    for (const s of spans) endSpan(s, { status: 500, message: (error as Error).message });
    throw error;
  }
  return finishOn(response, spans);
}

/**
 * Tells the request's tools/call span how the call went in the fake (what only the host knows).
 *
 * @example noteMcpCall(extra.request, { tool: name, committed: outcome.committed, commitSeq: outcome.commit?.seq, isError });
 */
export function noteMcpCall(request: Request | undefined, note: McpCallNote): void {
  const spans = request && open.get(request);
  const entry = spans?.find((s) => s.method === "tools/call" && s.tool === note.tool && !s.noted);
  if (!entry) return;
  entry.noted = true;
  entry.span.set({
    "eval_simulate.wrote": note.committed,
    "eval_simulate.commit.seq": note.commitSeq,
    "eval_simulate.stub": note.stub,
  });
  if (note.isError) entry.span.fail("tool_error", "the tool answered an error result");
}

function startSpans(fake: string, request: Request, body: unknown): OpenSpan[] {
  const messages = Array.isArray(body) ? body : [body];
  const address = sessionIdOf(request);
  const session = address === undefined ? undefined : splitAddress(address).sid;
  const header = { parent: request.headers.get("traceparent") ?? undefined, state: request.headers.get("tracestate") ?? undefined };
  const spans: OpenSpan[] = [];
  for (const message of messages) {
    if (!isObject(message) || typeof message.method !== "string") continue;
    const params = isObject(message.params) ? message.params : {};
    const meta = isObject(params._meta) ? params._meta : {};
    const tool = message.method === "tools/call" && typeof params.name === "string" ? params.name : undefined;
    const prompt = message.method === "prompts/get" && typeof params.name === "string" ? params.name : undefined;
    const target = tool ?? prompt;
    const fromMeta = typeof meta.traceparent === "string";
    const parent = fromMeta ? (meta.traceparent as string) : header.parent;
    const tracestate = fromMeta ? (typeof meta.tracestate === "string" ? meta.tracestate : undefined) : header.state;
    const id = message.id;
    const span = tracer().start(target === undefined ? message.method : `${message.method} ${target}`, {
      kind: "server",
      ...(parent !== undefined ? { parent } : {}),
      ...(tracestate !== undefined ? { tracestate } : {}),
      attributes: {
        "mcp.method.name": message.method,
        "jsonrpc.request.id": typeof id === "string" || typeof id === "number" ? String(id) : undefined,
        "mcp.protocol.version": request.headers.get("mcp-protocol-version") ?? undefined,
        // The fakes keep no MCP session (stateless): the session a call belongs to is the world's.
        "mcp.session.id": request.headers.get("mcp-session-id") ?? session,
        "gen_ai.tool.name": tool,
        "gen_ai.prompt.name": prompt,
        "gen_ai.operation.name": tool === undefined ? undefined : "execute_tool",
        "mcp.resource.uri": message.method === "resources/read" && typeof params.uri === "string" ? params.uri : undefined,
        "network.transport": "tcp",
        "network.protocol.name": "http",
        "eval_simulate.fake.id": fake,
        "eval_simulate.session.id": session,
      },
    });
    spans.push({ span, method: message.method, ...(tool !== undefined ? { tool } : {}), noted: false });
  }
  return spans;
}

/**
 * Ends the spans once the answer is written: at once for a body-less answer, else when the body
 * stream ends, its first bytes read for a JSON-RPC error code on the way past.
 */
function finishOn(response: Response, spans: OpenSpan[]): Response {
  if (response.body === null) {
    for (const s of spans) endSpan(s, { status: response.status });
    return response;
  }
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let head = "";
  let ended = false;
  const end = (message?: string): void => {
    if (ended) return;
    ended = true;
    for (const s of spans) endSpan(s, { status: response.status, head, ...(message !== undefined ? { message } : {}) });
  };
  const watched = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
          return;
        }
        if (head.length < PEEK_BYTES) head += decoder.decode(value.subarray(0, PEEK_BYTES), { stream: true });
        controller.enqueue(value);
      } catch (error) {
        end((error as Error).message);
        controller.error(error);
      }
    },
    cancel(reason) {
      end("the client went away before the answer was written");
      return reader.cancel(reason);
    },
  });
  return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function endSpan(entry: OpenSpan, answer: { status: number; head?: string; message?: string }): void {
  // A JSON-RPC error object's code: quotes inside strings are escaped, so this matches an envelope only.
  const code = answer.head === undefined ? undefined : /"error":\{"code":(-?\d+)/.exec(answer.head)?.[1];
  if (code !== undefined) {
    entry.span.set({ "rpc.response.status_code": code });
    entry.span.fail(code, jsonRpcMessage(answer.head!));
  } else if (answer.status >= 400) {
    entry.span.fail(String(answer.status), answer.message ?? `HTTP ${answer.status}`);
  } else if (answer.message !== undefined) {
    entry.span.fail("cancelled", answer.message);
  }
  entry.span.end();
}

function jsonRpcMessage(head: string): string | undefined {
  const match = /"error":\{"code":-?\d+,"message":"((?:[^"\\]|\\.)*)"/.exec(head);
  if (!match) return undefined;
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return match[1];
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
