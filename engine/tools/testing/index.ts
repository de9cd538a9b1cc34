/**
 * engine/tools/testing/: `eval-simulate/testing`. `withFakes`, `connect`, `callTool`, `call` and
 * `recording`: the official MCP client (an optional peer) against the fakes.
 *
 * Other folders import this folder through this file only.
 */
export { ToolCallError, call, callTool } from "./call-tool.js";
export type { ToolCallResult } from "./call-tool.js";
export { connect, openClient } from "./connect.js";
export type { ConnectOptions } from "./connect.js";
export { filePath, recording } from "./recording.js";
export type { Recording } from "./recording.js";
export { withFakes } from "./with-fakes.js";
export type { FakeClients, WithFakesOptions } from "./with-fakes.js";
