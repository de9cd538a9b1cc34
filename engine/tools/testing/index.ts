/** The door of engine/tools/testing/: what other folders may import from it. */
export { ToolCallError, call, callTool } from "./call-tool.js";
export type { ToolCallResult } from "./call-tool.js";
export { connect, openClient } from "./connect.js";
export type { ConnectOptions } from "./connect.js";
export { filePath, recording } from "./recording.js";
export type { Recording } from "./recording.js";
export { withFakes } from "./with-fakes.js";
export type { FakeClients, WithFakesOptions } from "./with-fakes.js";
