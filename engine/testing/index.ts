/**
 * `eval-simulate/testing`: a Recipe's contract tests of its fakes, over the official MCP client
 * (`@modelcontextprotocol/client`, an optional peer dependency the host never loads).
 */
export { call, callTool, ToolCallError } from "./call-tool.js";
export type { ToolCallResult } from "./call-tool.js";
export { connect } from "./connect.js";
export type { ConnectOptions } from "./connect.js";
export { recording } from "./recording.js";
export type { Recording } from "./recording.js";
export { withFakes } from "./with-fakes.js";
export type { FakeClients, WithFakesOptions } from "./with-fakes.js";
