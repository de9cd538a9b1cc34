import type { ApiManifest, ServerManifest } from "../model/index.js";

/** An MCP fake as the runtime serves it, however it was declared (YAML or TypeScript). */
export interface McpFake {
  kind: "mcp";
  manifest: ServerManifest;
  /** Field names its manifest asks to redact from the evidence. */
  redact?: readonly string[];
}

/** An API fake served from its trimmed OpenAPI document. */
export interface ApiFake {
  kind: "api";
  manifest: ApiManifest;
  redact?: readonly string[];
}

/** Every kind of fake the host serves. */
export type Fake = McpFake | ApiFake;

/** Fakes by id: what `loadFakes` returns and `startServices` serves. */
export type Fakes = Record<string, Fake>;
