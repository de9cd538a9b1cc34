import type { ServerManifest } from "../manifest/types.js";
import type { WorldSource } from "../world/index.js";

/** An MCP fake as the runtime serves it, however it was declared (YAML or TypeScript). */
export interface McpFake {
  kind: "mcp";
  manifest: ServerManifest;
}

/** Every kind of fake the host serves. */
export type Fake = McpFake;

/** Fakes by id: what `loadFakes` returns and `startServices` serves. */
export type Fakes = Record<string, Fake>;

/** A Recipe's world: built from the manifest's scenarios, or a function `world(scenario, clock)`. */
export type WorldOption = WorldSource | ((scenario: string, clock: Date) => unknown);
