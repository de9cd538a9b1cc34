/**
 * engine/author/fakes/: what `startServices` serves, and the neutral place the serving and eval
 * layers both use. `loadFakes` turns a manifest into fakes and their world (`load-fakes.ts`); the
 * fakes' types (`fakes.ts`, `served-fake.ts`); the kinds of fake, mcp, api and emulate, as this
 * layer knows them (`fake-kinds.ts`: the entities a state is checked against, the write map, the
 * manifest-dir files), the registry the serve and judge layers key theirs by; and the TypeScript
 * front end: `contractOf`, `toolsOf` and seed-style modules (`manifest`, `contract`, `register`:
 * `mcp-fake-module.ts`) turned into the same runtime fakes as YAML ones.
 *
 * Other folders import this folder through this file only.
 */
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
export { apiManifestJson, FAKE_KINDS, fakeKind, kindName, serverAnswersJson, serverManifestJson } from "./fake-kinds.js";
export type { FakeKind, FakeKindName } from "./fake-kinds.js";
export { FakeSelectionError, fakeList, requiredMissing, selectFakes } from "./fake-selection.js";
export type { FakeSelectionProblem } from "./fake-selection.js";
