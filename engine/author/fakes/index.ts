/** The TypeScript front end: fakes declared in code, served by the same runtime as YAML ones. */
export { CAPTURED_ORDER, capturedOrder, contractOf } from "./contract-of.js";
export type { CapturedTools, Contract } from "./contract-of.js";
export { isMcpFakeModule, mcpFakeFromModule } from "./mcp-fake-module.js";
export type { FakeManifestJson, McpFakeModule, RegisteredCallback, ToolRegistrar } from "./mcp-fake-module.js";
export { CONFIG_OF, toolsOf } from "./tools-of.js";
export type { ToolConfig } from "./tools-of.js";
export { normalizeFakes } from "./fakes.js";
export type { ApiFake, Fake, Fakes, FakesInput, McpFake, WorldOption } from "./fakes.js";
export { loadFakes } from "./load-fakes.js";
export type { LoadedFakes } from "./load-fakes.js";
export { FakeSelectionError, fakeList, requiredMissing, selectFakes } from "./fake-selection.js";
export type { FakeSelectionProblem } from "./fake-selection.js";
