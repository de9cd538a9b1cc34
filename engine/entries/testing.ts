/**
 * `eval-simulate/testing`: a Recipe's contract tests of its fakes, over the official MCP client
 * (`@modelcontextprotocol/client`, which the package bundles: `connect` hands back its copy of `Client`, so
 * `instanceof Client` from a Recipe's own install of the SDK is false; its errors are branded, so
 * `instanceof ProtocolError` holds). The host never loads this entry.
 */
export { call, callTool, ToolCallError } from "../tools/testing/index.js";
export type { ToolCallResult } from "../tools/testing/index.js";
export { connect } from "../tools/testing/index.js";
export type { ConnectOptions } from "../tools/testing/index.js";
export { recording } from "../tools/testing/index.js";
export type { Recording } from "../tools/testing/index.js";
export { withFakes } from "../tools/testing/index.js";
export type { FakeClients, WithFakesOptions } from "../tools/testing/index.js";
