import { describe, expect, it } from "vitest";
import * as fidelity from "../engine/fidelity/index.js";
import * as surface from "../engine/index.js";

describe("the package's public surface", () => {
  it("exports exactly these names, so nothing becomes public by accident", () => {
    expect(Object.keys(surface).sort()).toEqual([
      "ManifestError",
      "SIDECAR_PORT",
      "UnknownScenarioError",
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

  it("eval-simulate/fidelity exports exactly these names", () => {
    expect(Object.keys(fidelity).sort()).toEqual(["answerDifferences", "answerText", "callForAnswer", "mcpTarget", "observe", "observeTool", "readCalls", "readForAnswer", "replay"]);
  });
});
