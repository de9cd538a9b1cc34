/**
 * engine/author/capture/: `eval-simulate capture`. An API's published description trimmed to the
 * operations used, keeping every component they reach and applying the manifest's corrections
 * (`read-description.ts`, `trim-document.ts`, `capture.ts`), recorded in the manifest with its
 * comments kept, `--check` naming each change; a real MCP server's tools (every page), info,
 * instructions, capabilities and resources read with the official client (`mcp-server-capture.ts`),
 * written and recorded (`capture-mcp.ts`), from a command line with `NAME=value` words or a URL
 * (`mcp-target.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { captureMcp } from "./capture-mcp.js";
export { capture } from "./capture.js";
export { captureMcpServer, connectMcpTarget } from "./mcp-server-capture.js";
export type { McpServerCapture, McpServerTarget } from "./mcp-server-capture.js";
export { mcpTarget } from "./mcp-target.js";
