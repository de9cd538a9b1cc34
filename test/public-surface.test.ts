import { describe, expect, it } from "vitest";
import * as fidelity from "../engine/entries/fidelity.js";
import * as surface from "../engine/index.js";
import * as judge from "../engine/entries/judge.js";
import * as runner from "../engine/entries/runner.js";
import * as selection from "../engine/entries/selection.js";
import * as verify from "../engine/entries/verify.js";

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

  it("eval-simulate/fidelity exports exactly these names", () => {
    expect(Object.keys(fidelity).sort()).toEqual(["answerDifferences", "answerText", "callForAnswer", "mcpTarget", "observe", "observeTool", "readCalls", "readForAnswer", "replay"]);
  });

  it("exports exactly these names from eval-simulate/judge and eval-simulate/verify", () => {
    expect(Object.keys(judge).sort()).toEqual(["checkEvals", "fetchRun", "finalAnswer", "isEvalsFile", "judgeRun", "loadEvals", "readRun", "rebuildHistory", "scoreOf", "verdictOf"]);
    expect(Object.keys(verify).sort()).toEqual([
      "applyEntityPatch",
      "changedEntities",
      "entityPatch",
      "entityPatches",
      "fakeHash",
      "loadManifests",
      "piToolNames",
      "readRecord",
      "sameJson",
      "valueHash",
      "worldHash",
      "writeAttempts",
    ]);
  });

  it("exports exactly these names from eval-simulate/runner", () => {
    expect(Object.keys(runner).sort()).toEqual(["JUDGE_PROMPT_VERSION", "PRICES", "UnknownPriceError", "judgmentsFile", "passAtK", "passHatK", "readResults", "renderJunit", "renderSummaryMarkdown", "renderSummaryText", "rubricJudge", "runEvals", "summarise"]);
  });

  it("exports exactly these names from eval-simulate/selection", () => {
    expect(Object.keys(selection).sort()).toEqual([
      "DEFAULT_SELECTION_SYSTEM", "applyVariant", "badCalls", "callKey", "compareRuns", "evaluateGate", "loadVariant",
      "renderCompareJson", "renderCompareMarkdown", "renderCompareText", "renderSelectionJson", "renderSelectionMarkdown", "renderSelectionText",
      "resolveFixtures", "runSelection", "scoreSelection", "selectionCatalog", "summarizeSelection", "toolMetrics", "variantCatalog",
    ]);
  });
});
