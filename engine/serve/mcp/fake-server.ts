/**
 * The per-request server of one fake. The SDK's serving entry asks for a fresh server for every
 * HTTP request, so everything that can be is built once here (the frozen list results, the
 * output schemas, the handlers) and a request only constructs a low-level `Server` and attaches
 * the prebuilt handlers: about 2 µs, where an `McpServer` re-registering 50 tools costs
 * 120–200 µs and rewrites the captured tools. A 2025-era session (`sessions: true`) or stdio
 * keeps one server for its whole connection instead.
 */
import type { Server, CallToolRequest, CallToolResult, ListToolsRequest, ListToolsResult, ServerContext, ServerOptions } from "@modelcontextprotocol/server";
import { type McpSdk, mcpSdk, resultShapeProblem } from "../../author/contract/index.js";
import { clientOf } from "./fake-client.js";
import { pagedList } from "./fake-lists.js";
import { McpRequestError, ToolNotFoundError, serverInfoOf, type McpFakeRuntime } from "./fake-runtime.js";
import { subscribeHandlers } from "./resource-subscriptions.js";

/** What a server is built for: its protocol era, and whether it serves one 2025-era session. */
export interface ServerFor {
  era?: "legacy" | "modern";
  /** A session's server (or stdio's): it can ask the client and push to subscribers. */
  session?: boolean;
}

/** The servers of one fake, and a way to wait for its calls. */
export interface FakeServers {
  /** The SDK's factory: a fresh low-level `Server` for one request, or for one session. */
  create(context?: ServerFor): Server;
  /** Resolves once no call is running. */
  idle(): Promise<void>;
}

/**
 * The per-request servers of a fake: each lists the fake's tools, prompts and resources as
 * captured (paged by its `pageSize`) and sends calls to `fake.callTool`. Aborting `stopping`
 * aborts the signal of every call still running.
 *
 * @example
 * const servers = fakeServers(fake, stopping.signal);
 * const handler = createMcpHandler(servers.create);
 */
export function fakeServers(fake: McpFakeRuntime, stopping?: AbortSignal): FakeServers {
  const sdk = mcpSdk();
  const { ProtocolError, ProtocolErrorCode, Server } = sdk;
  const serverInfo = { ...serverInfoOf(fake) };
  const tools = snapshotTools(fake);
  const outputSchemas = new Map<string, Record<string, unknown>>();
  for (const tool of tools) {
    if (isObject(tool.outputSchema)) outputSchemas.set(tool.name as string, tool.outputSchema);
  }
  const listTools = pagedList("tools", tools, fake.pageSize);
  const reads = fake.readResource !== undefined;
  const listResources = pagedList("resources", fake.resources ?? [], fake.pageSize);
  const listTemplates = pagedList("resourceTemplates", fake.resourceTemplates ?? [], fake.pageSize);
  const prompts = fake.getPrompt !== undefined;
  const listPrompts = pagedList("prompts", fake.prompts ?? [], fake.pageSize);
  const capabilities = (session: boolean) => ({
    tools: { listChanged: fake.listed !== undefined },
    ...(reads && { resources: session && fake.watch ? { subscribe: true, listChanged: false } : {} }),
    ...(prompts && { prompts: { listChanged: false } }),
    ...(fake.complete && { completions: {} }),
    ...(fake.logging && { logging: {} }),
  });
  const options = (session: boolean): ServerOptions => ({
    capabilities: capabilities(session),
    // The Server's validator checks elicitation answers; sharing one keeps it from being
    // allocated per request.
    jsonSchemaValidator: jsonSchemaValidator(sdk),
    ...(fake.instructions !== undefined && { instructions: fake.instructions }),
  });
  const stateless = options(false);
  const inSession = options(true);
  let running = 0;
  const whenIdle: Array<() => void> = [];
  const track = async <T>(ctx: ServerContext, work: (extra: { signal: AbortSignal; request?: Request }) => Promise<T>): Promise<T> => {
    const signal = linkedSignal(ctx.mcpReq.signal, stopping);
    running++;
    try {
      return await work({ signal: signal.signal, ...(ctx.http?.req !== undefined && { request: ctx.http.req }) });
    } finally {
      signal.release();
      if (--running === 0) for (const resolve of whenIdle.splice(0)) resolve();
    }
  };

  // A changing list is filtered per request, from the world the request addresses.
  const listNow = (cursor: string | undefined, request: Request | undefined): ListToolsResult => {
    if (fake.listed === undefined) return listTools(cursor) as ListToolsResult;
    const listed = fake.listed(request);
    return pagedList(
      "tools",
      tools.filter((tool) => listed.has(tool.name as string)),
      fake.pageSize,
    )(cursor) as ListToolsResult;
  };
  const listedKey = (request: Request | undefined): string => (fake.listed ? [...fake.listed(request)].sort().join("\n") : "");

  const callTool = async (request: CallToolRequest, ctx: ServerContext, server: Server, canAsk: boolean): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    let result: CallToolResult;
    const before = canAsk ? listedKey(ctx.http?.req) : "";
    try {
      result = (await track(ctx, (extra) => fake.callTool(name, args, { ...extra, client: clientOf(fake, ctx, canAsk) }))) as CallToolResult;
    } catch (error) {
      if (error instanceof ToolNotFoundError) {
        // McpServer's own wording and code for an unknown tool.
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
      }
      return toolError(error);
    } finally {
      // The call may have changed which tools are listed: a session's client is told, and
      // re-lists (stateless clients have no stream to be told on).
      if (canAsk && fake.listed && listedKey(ctx.http?.req) !== before) server.sendToolListChanged().catch(() => {});
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

  const readResource = (uri: string, ctx: ServerContext) =>
    track(ctx, async (extra) => {
      const read = await fake.readResource!(uri, extra);
      // The SDK's McpServer words an unknown resource the same way.
      if (read === undefined) throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource ${uri} not found`);
      return read as never;
    });
  const refused = (error: unknown): never => {
    if (error instanceof McpRequestError) throw new ProtocolError(error.code, error.message);
    throw error;
  };

  return {
    create: (context = {}) => {
      const session = context.session === true;
      const server = new Server(serverInfo, session ? inSession : stateless);
      // Only a session's server (or stdio's) gets the client's answer back; see fake-client.ts.
      const canAsk = session && context.era !== "modern";
      server.setRequestHandler("tools/list", (request: ListToolsRequest, ctx) => listNow(request.params?.cursor, ctx.http?.req));
      server.setRequestHandler("tools/call", (request, ctx) => callTool(request, ctx, server, canAsk));
      if (reads) {
        server.setRequestHandler("resources/list", (request) => listResources(request.params?.cursor) as never);
        server.setRequestHandler("resources/templates/list", (request) => listTemplates(request.params?.cursor) as never);
        server.setRequestHandler("resources/read", (request, ctx) => readResource(request.params.uri, ctx));
        if (session) subscribeHandlers(fake, server);
      }
      if (prompts) {
        server.setRequestHandler("prompts/list", (request) => listPrompts(request.params?.cursor) as never);
        server.setRequestHandler(
          "prompts/get",
          (request, ctx) => track(ctx, (extra) => fake.getPrompt!(request.params.name, request.params.arguments, extra)).catch(refused) as never,
        );
      }
      if (fake.complete) {
        server.setRequestHandler("completion/complete", (request, ctx) =>
          track(ctx, async (extra) => ({
            completion: await fake.complete!(request.params.ref as never, request.params.argument, request.params.context?.arguments ?? {}, extra),
          })).catch(refused),
        );
      }
      return server;
    },
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenIdle.push(resolve))),
  };
}

let sharedValidator: InstanceType<McpSdk["AjvJsonSchemaValidator"]> | undefined;
const jsonSchemaValidator = (sdk: McpSdk) => (sharedValidator ??= new sdk.AjvJsonSchemaValidator());

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
    if (!isObject(tool) || typeof tool.name !== "string") {
      throw new TypeError(`[eval-simulate] fake ${JSON.stringify(fake.id)}: tool ${index} has no string name`);
    }
    if (seen.has(tool.name)) {
      throw new TypeError(`[eval-simulate] fake ${JSON.stringify(fake.id)}: tool ${JSON.stringify(tool.name)} is listed twice`);
    }
    seen.add(tool.name);
  }
  return tools as Array<Record<string, unknown>>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
