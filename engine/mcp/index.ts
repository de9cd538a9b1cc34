/** The MCP stage: one fake's tools served over Streamable HTTP, and a port to serve it on. */
export { ToolNotFoundError, serverInfoOf } from "./fake-runtime.js";
export type { McpCallExtra, McpFakeRuntime, McpServerInfo } from "./fake-runtime.js";
export { createMcpEndpoint, DEFAULT_MAX_REQUEST_BODY_SIZE } from "./mcp-endpoint.js";
export type { McpEndpoint, McpEndpointOptions } from "./mcp-endpoint.js";
export { AllowedOriginError, originCheck, parseAllowedOrigins } from "./origin-check.js";
