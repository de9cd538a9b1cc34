import { readFileSync } from "node:fs";
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
      "FakeSelectionError",
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
      "fail",
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
      "startTracing",
      "stopTracing",
      "structured",
      "text",
      "toolsOf",
    ]);
  });

  it("eval-simulate/fidelity exports exactly these names", () => {
    expect(Object.keys(fidelity).sort()).toEqual([
      "answerDifferences",
      "answerText",
      "callForAnswer",
      "mcpTarget",
      "observe",
      "observeTool",
      "readCalls",
      "readForAnswer",
      "replay",
    ]);
  });

  it("exports exactly these names from eval-simulate/judge and eval-simulate/verify", () => {
    expect(Object.keys(judge).sort()).toEqual([
      "checkEvals",
      "fetchRun",
      "finalAnswer",
      "isEvalsFile",
      "judgeRun",
      "loadEvals",
      "readRun",
      "rebuildHistory",
      "scoreOf",
      "verdictOf",
    ]);
    expect(Object.keys(verify).sort()).toEqual([
      "applyEntityPatch",
      "changedEntities",
      "entityPatch",
      "entityPatches",
      "fakeHash",
      "loadManifests",
      "loadState",
      "loadStates",
      "piToolNames",
      "readRecord",
      "sameJson",
      "valueHash",
      "worldHash",
      "writeAttempts",
    ]);
  });

  it("exports exactly these names from eval-simulate/runner", () => {
    expect(Object.keys(runner).sort()).toEqual([
      "DEFAULT_SELECTION_SYSTEM",
      "FatalRunError",
      "JUDGE_PROMPT_VERSION",
      "PRICES",
      "UnknownPriceError",
      "answerWith",
      "answererCapabilities",
      "badCalls",
      "callKey",
      "compareRuns",
      "judgmentsFile",
      "mergeResults",
      "parseShard",
      "passAtK",
      "passHatK",
      "readResults",
      "renderCompareJson",
      "renderCompareMarkdown",
      "renderCompareText",
      "renderJunit",
      "renderSelectionJson",
      "renderSelectionMarkdown",
      "renderSelectionText",
      "renderSummaryMarkdown",
      "renderSummaryText",
      "rubricJudge",
      "runEvals",
      "runSelection",
      "scriptedAnswers",
      "startTracing",
      "stopTracing",
      "summarise",
      "summarize",
      "summarizeSelection",
    ]);
  });

  it("exports exactly these names from eval-simulate/selection", () => {
    expect(Object.keys(selection).sort()).toEqual([
      "DEFAULT_SELECTION_SYSTEM",
      "applyVariant",
      "badCalls",
      "callKey",
      "compareRuns",
      "evaluateGate",
      "loadVariant",
      "renderCompareJson",
      "renderCompareMarkdown",
      "renderCompareText",
      "renderSelectionJson",
      "renderSelectionMarkdown",
      "renderSelectionText",
      "resolveFixtures",
      "runSelection",
      "scoreSelection",
      "selectionCatalog",
      "summarizeSelection",
      "toolMetrics",
      "variantCatalog",
    ]);
  });

  it("keeps what moved to eval-simulate/runner importable from eval-simulate/selection: the same values, each marked deprecated", () => {
    const moved = [
      "DEFAULT_SELECTION_SYSTEM",
      "badCalls",
      "callKey",
      "compareRuns",
      "renderCompareJson",
      "renderCompareMarkdown",
      "renderCompareText",
      "renderSelectionJson",
      "renderSelectionMarkdown",
      "renderSelectionText",
      "runSelection",
      "summarizeSelection",
    ];
    const bySelection = selection as Record<string, unknown>;
    const byRunner = runner as Record<string, unknown>;
    expect(moved.filter((name) => bySelection[name] === undefined || bySelection[name] !== byRunner[name])).toEqual([]);
    const source = readFileSync(new URL("../engine/entries/selection-moved.ts", import.meta.url), "utf8");
    // Every export of the file is a declaration right under its deprecation.
    const declared = [...source.matchAll(/^\/\*\* (@deprecated [^\n]*) \*\/\nexport (const|type) (\w+)/gm)];
    expect([...source.matchAll(/^export /gm)]).toHaveLength(declared.length);
    expect(new Set(declared.map((m) => m[1]))).toEqual(new Set(["@deprecated Import it from `eval-simulate/runner`."]));
    expect(
      declared
        .filter((m) => m[2] === "const")
        .map((m) => m[3])
        .sort(),
    ).toEqual(moved);
  });

  it("spells summarize with a z, keeping summarise as a deprecated alias of the same function", () => {
    expect(runner.summarise).toBe(runner.summarize);
    const source = readFileSync(new URL("../engine/eval/results/run-summary.ts", import.meta.url), "utf8");
    expect(source).toMatch(/\/\*\* @deprecated The old spelling of \{@link summarize\}[^\n]*\*\/\nexport const summarise\b/);
  });
});
