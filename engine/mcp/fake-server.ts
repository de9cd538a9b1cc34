/**
 * The per-request server factory for one fake. The SDK's serving entry asks for a fresh server
 * for every HTTP request, so everything that can be is built once here (the frozen tools/list
 * result, the output schemas, the handlers) and the factory only constructs a low-level `Server`
 * and attaches the two prebuilt handlers: about 2 µs, where an `McpServer` re-registering 50
 * tools costs about 200 µs and would rewrite the captured tools.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolRequest,
  type CallToolResult,
  type ListToolsResult,
  type ServerContext,
  type ServerOptions,
} from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { ToolNotFoundError, serverInfoOf, type McpFakeRuntime } from "./fake-runtime.js";

/**
 * A factory returning a fresh low-level `Server` that lists the fake's tools as captured and
 * sends calls to `fake.callTool`. Aborting `stopped` aborts every call in flight.
 *
 * @example
 * const handler = createMcpHandler(fakeServerFactory(fake, stopping.signal));
 */
export function fakeServerFactory(fake: McpFakeRuntime, stopped?: AbortSignal): () => Server {
  const serverInfo = { ...serverInfoOf(fake) };
  const tools = snapshotTools(fake);
  // One result object for every tools/list: the SDK sends it as it is, so each tool reaches the
  // wire exactly as captured. Every tool is in it (no cursor: a fake has few tools). Frozen, so
  // nothing can make one request's list differ from the next.
  const listResult = deepFreeze({ tools }) as unknown as ListToolsResult;
  const outputSchemas = new Map<string, Record<string, unknown>>();
  for (const tool of tools) {
    if (isObject(tool["outputSchema"])) outputSchemas.set(tool["name"] as string, tool["outputSchema"]);
  }
  const options: ServerOptions = {
    capabilities: { tools: { listChanged: false } },
    // The Server's validator is only used for elicitation, which a fake never sends; sharing one
    // keeps it from being allocated per request.
    jsonSchemaValidator: new AjvJsonSchemaValidator(),
    ...(fake.instructions !== undefined && { instructions: fake.instructions }),
  };

  const listTools = (): ListToolsResult => listResult;
  const callTool = async (request: CallToolRequest, ctx: ServerContext, server: Server): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const call = linkedAbort(ctx.mcpReq.signal, stopped);
    let result: CallToolResult;
    try {
      const extra = { signal: call.signal, ...(ctx.http?.req !== undefined && { request: ctx.http.req }) };
      result = (await fake.callTool(name, args, extra)) as CallToolResult;
    } catch (error) {
      if (error instanceof ToolNotFoundError) {
        // McpServer's own wording and code for an unknown tool.
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
      }
      return toolError(error);
    } finally {
      call.release();
    }
    // What McpServer does to every result: the era's projection (a text fallback for
    // non-object structured content; the 2025 era's { result } wrap for non-object schemas).
    return server.projectCallToolResult(result, outputSchemas.get(name));
  };

  return () => {
    const server = new Server(serverInfo, options);
    server.setRequestHandler("tools/list", listTools);
    server.setRequestHandler("tools/call", (request, ctx) => callTool(request, ctx, server));
    return server;
  };
}

/**
 * A signal aborted when either source is: the SDK's per-request signal (the client went away or
 * cancelled) or the endpoint's (it is closing). Listeners are removed once the call is over, so
 * the long-lived endpoint signal does not collect one per call.
 */
function linkedAbort(request: AbortSignal, stopped: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
  if (stopped === undefined) return { signal: request, release: () => {} };
  const controller = new AbortController();
  const sources = [request, stopped];
  const abort = (): void => {
    const source = sources.find((signal) => signal.aborted);
    controller.abort(source?.reason);
  };
  if (request.aborted || stopped.aborted) abort();
  else for (const signal of sources) signal.addEventListener("abort", abort, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      for (const signal of sources) signal.removeEventListener("abort", abort);
    },
  };
}

/** A tool error with the thrown value's message, as McpServer answers a throwing handler. */
function toolError(error: unknown): CallToolResult {
  const text = error instanceof Error ? error.message : String(error);
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * The tools as JSON, copied once: exactly the bytes the wire carries, and safe from later
 * changes to the objects the host holds. A tool without a string name, or a name listed twice,
 * is a bug in the host, refused at start-up.
 */
function snapshotTools(fake: McpFakeRuntime): Array<Record<string, unknown>> {
  const tools = JSON.parse(JSON.stringify(fake.tools)) as unknown;
  if (!Array.isArray(tools)) throw new TypeError(`[eval-simulate] fake ${JSON.stringify(fake.id)}: tools must be an array`);
  const seen = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (!isObject(tool) || typeof tool["name"] !== "string") {
      throw new TypeError(`[eval-simulate] fake ${JSON.stringify(fake.id)}: tool ${index} has no string name`);
    }
    if (seen.has(tool["name"])) {
      throw new TypeError(`[eval-simulate] fake ${JSON.stringify(fake.id)}: tool ${JSON.stringify(tool["name"])} is listed twice`);
    }
    seen.add(tool["name"]);
  }
  return tools as Array<Record<string, unknown>>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
