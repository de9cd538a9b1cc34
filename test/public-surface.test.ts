import { describe, expect, it } from "vitest";
import * as surface from "../engine/index.js";

describe("the package's public surface", () => {
  it("exports exactly these names, so nothing becomes public by accident", () => {
    expect(Object.keys(surface).sort()).toEqual([
      "ManifestError",
      "SIDECAR_PORT",
      "SessionLimitError",
      "UnknownScenarioError",
      "UnknownSessionError",
      "checkManifest",
      "contractOf",
      "defineApiHandlers",
      "defineHandlers",
      "encodeAnswer",
      "labelId",
      "loadFakes",
      "loadManifest",
      "mcpFakeFromModule",
      "notImplemented",
      "parseClock",
      "readAnswer",
      "readResult",
      "serveSidecar",
      "sidecarOptions",
      "startServices",
      "structured",
      "text",
      "toolsOf",
    ]);
  });
});
