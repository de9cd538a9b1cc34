/**
 * The per-request server of one fake. The SDK's serving entry asks for a fresh server for every
 * HTTP request, so everything that can be is built once here (the frozen tools/list result, the
 * output schemas, the handlers) and a request only constructs a low-level `Server` and attaches
 * the two prebuilt handlers: about 2 µs, where an `McpServer` re-registering 50 tools costs
 * 120–200 µs and rewrites the captured tools.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolRequest,
  type CallToolResult,
  type ListToolsRequest,
  type ListToolsResult,
  type ServerContext,
  type ServerOptions,
} from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { resultShapeProblem } from "../../author/contract/index.js";
import { ToolNotFoundError, serverInfoOf, type McpFakeRuntime } from "./fake-runtime.js";

/** The servers of one fake, and a way to wait for its calls. */
export interface FakeServers {
  /** The SDK's factory: a fresh low-level `Server` for one request. */
  create(): Server;
  /** Resolves once no call is running. */
  idle(): Promise<void>;
}

/**
 * The per-request servers of a fake: each lists the fake's tools as captured and sends calls to
 * `fake.callTool`. Aborting `stopping` aborts the signal of every call still running.
 *
 * @example
 * const servers = fakeServers(fake, stopping.signal);
 * const handler = createMcpHandler(servers.create);
 */
export function fakeServers(fake: McpFakeRuntime, stopping?: AbortSignal): FakeServers {
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
  const reads = fake.readResource !== undefined;
  const resourcesResult = deepFreeze({ resources: JSON.parse(JSON.stringify(fake.resources ?? [])) });
  const templatesResult = deepFreeze({ resourceTemplates: JSON.parse(JSON.stringify(fake.resourceTemplates ?? [])) });
  const options: ServerOptions = {
    capabilities: { tools: { listChanged: false }, ...(reads && { resources: {} }) },
    // The Server's validator is only used for elicitation, which a fake never sends; sharing one
    // keeps it from being allocated per request.
    jsonSchemaValidator: new AjvJsonSchemaValidator(),
    ...(fake.instructions !== undefined && { instructions: fake.instructions }),
  };
  let running = 0;
  const whenIdle: Array<() => void> = [];

  // One page and no `nextCursor`, so any cursor a client sends is one this server never issued:
  // the spec's answer to an invalid cursor is -32602, not the first page again.
  const listTools = (request: ListToolsRequest): ListToolsResult => {
    if (request.params?.cursor !== undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor: this server lists every tool on one page and issued no cursor");
    }
    return listResult;
  };
  const callTool = async (request: CallToolRequest, ctx: ServerContext, server: Server): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const signal = linkedSignal(ctx.mcpReq.signal, stopping);
    let result: CallToolResult;
    running++;
    try {
      const extra = { signal: signal.signal, ...(ctx.http?.req !== undefined && { request: ctx.http.req }) };
      result = (await fake.callTool(name, args, extra)) as CallToolResult;
    } catch (error) {
      if (error instanceof ToolNotFoundError) {
        // McpServer's own wording and code for an unknown tool.
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
      }
      return toolError(error);
    } finally {
      signal.release();
      if (--running === 0) for (const resolve of whenIdle.splice(0)) resolve();
    }
    // A runtime that answered a malformed result gets a short tool error naming the problem,
    // not the SDK's validation dump as a protocol error (the host's runtime refuses them earlier,
    // before they commit).
    const malformed = resultShapeProblem(result);
    if (malformed) return toolError(new Error(`[eval-simulate] the fake ${JSON.stringify(fake.id)} answered a malformed result: ${malformed}`));
    // What McpServer does to every result: the era's projection (a text fallback for
    // non-object structured content; the 2025 era's { result } wrap for non-object schemas).
    return server.projectCallToolResult(result, outputSchemas.get(name));
  };

  const readResource = async (uri: string, ctx: ServerContext) => {
    const signal = linkedSignal(ctx.mcpReq.signal, stopping);
    try {
      const read = await fake.readResource!(uri, { signal: signal.signal });
      // The SDK's McpServer words an unknown resource the same way.
      if (read === undefined) throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource ${uri} not found`);
      return read as never;
    } finally {
      signal.release();
    }
  };

  return {
    create: () => {
      const server = new Server(serverInfo, options);
      server.setRequestHandler("tools/list", listTools);
      server.setRequestHandler("tools/call", (request, ctx) => callTool(request, ctx, server));
      if (reads) {
        server.setRequestHandler("resources/list", () => resourcesResult as never);
        server.setRequestHandler("resources/templates/list", () => templatesResult as never);
        server.setRequestHandler("resources/read", (request, ctx) => readResource(request.params.uri, ctx));
      }
      return server;
    },
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenIdle.push(resolve))),
  };
}

/**
 * A signal that aborts with the SDK's per-call signal (the client went away or cancelled) or
 * with `stopping` (the endpoint closes). `release` removes the listener from the long-lived
 * `stopping` signal, which would otherwise gather one per call. (`AbortSignal.any` does the
 * same at several times the cost.)
 */
function linkedSignal(call: AbortSignal, stopping: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
  if (stopping === undefined) return { signal: call, release: () => {} };
  if (stopping.aborted) return { signal: stopping, release: () => {} };
  const linked = new AbortController();
  const onStop = (): void => linked.abort(stopping.reason);
  const onCall = (): void => linked.abort(call.reason);
  stopping.addEventListener("abort", onStop, { once: true });
  call.addEventListener("abort", onCall, { once: true });
  if (call.aborted) onCall();
  return {
    signal: linked.signal,
    release: () => {
      stopping.removeEventListener("abort", onStop);
      call.removeEventListener("abort", onCall);
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
