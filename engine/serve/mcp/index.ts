/**
 * engine/serve/mcp/: one MCP fake over Streamable HTTP: the SDK's `createMcpHandler` with a
 * low-level `Server` built from prepared closures, both protocol eras (`fake-server.ts`,
 * `fake-runtime.ts`, `mcp-endpoint.ts`); its lists, paged (`fake-lists.ts`); what a handler sends
 * and asks the client of its request (`fake-client.ts`); resource subscriptions and their
 * updates (`resource-subscriptions.ts`); 2025-era clients in MCP sessions for a fake declared
 * with `sessions: true` (`legacy-sessions.ts`); one fake over stdio, bridged to its endpoint
 * (`stdio-bridge.ts`); each message handed over already parsed
 * (`parsed-body.ts`), and what the endpoint refuses before the SDK sees it: a foreign `Origin`, 403
 * (`origin-check.ts`), and a batch the revision has no batching for, an empty one or one repeating
 * a request id, 400 (`batch-check.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { McpRequestError, ToolNotFoundError, serverInfoOf } from "./fake-runtime.js";
export type { McpCallExtra, McpClient, McpFakeRuntime, McpLogLevel, McpServerInfo } from "./fake-runtime.js";
export { fakeServers } from "./fake-server.js";
export type { FakeServers, ServerFor } from "./fake-server.js";
export { createMcpEndpoint, DEFAULT_MAX_REQUEST_BODY_SIZE } from "./mcp-endpoint.js";
export type { McpEndpoint, McpEndpointOptions } from "./mcp-endpoint.js";
export { AllowedOriginError, originCheck, parseAllowedOrigins } from "./origin-check.js";
export { rememberParsedBody } from "./parsed-body.js";
export { bridgeStdio } from "./stdio-bridge.js";
export type { StdioBridge } from "./stdio-bridge.js";
