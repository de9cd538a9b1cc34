/** The door of engine/author/capture/: what other folders may import from it. */
export { captureMcp } from "./capture-mcp.js";
export { capture } from "./capture.js";
export { captureMcpServer, connectMcpTarget } from "./mcp-server-capture.js";
export type { McpServerCapture, McpServerTarget } from "./mcp-server-capture.js";
export { mcpTarget } from "./mcp-target.js";
