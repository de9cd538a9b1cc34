import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import compare from "../../cli/compare.js";
import { runCommand } from "citty";
import select from "../../cli/select.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import type { TrialLine } from "../../engine/eval/results/results-file.js";
import { selectionCatalog } from "../../engine/judge/selection/catalog.js";
import { compareRuns } from "../../engine/eval/results/compare.js";
import { applyVariant, loadVariant } from "../../engine/judge/selection/variant.js";
import { ManifestError } from "../../engine/author/source/diagnostic.js";
import { runInProcess } from "../support/run-command.js";
import { type ScriptedProvider, type ScriptedRequest, startScriptedProvider } from "../support/scripted-provider.js";
import { ROOT } from "../support/examples.js";
import { queryOf, WORKSPACE_PICKS } from "./workspace-picks.js";

const EXAMPLE = join(ROOT, "examples/workspace");
let provider: ScriptedProvider | undefined;

afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function quietly(fn: () => Promise<void>): Promise<string> {
  let stdout = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  try {
    await fn();
  } finally {
    out.mockRestore();
  }
  return stdout;
}

/**
 * A router that reads the descriptions it is offered: with the baseline's it confuses the read
 * tools twice; with clearer-reads' it gets those two right and misreads read-head instead. It
 * confuses list-src and dump-memory either way.
 */
function router(request: ScriptedRequest) {
  const id = Object.entries(WORKSPACE_PICKS.queries).find(([, query]) => query === queryOf(request))![0];
  const tools = request.body.tools as Array<{ function: { name: string; description: string } }>;
  const clearer = tools.find((t) => t.function.name === "read_text_file")!.function.description.startsWith("Read ONE text file");
  const picks: Record<string, string[]> = clearer
    ? { "read-head": ["read_multiple_files"], "list-src": ["directory_tree"], "dump-memory": ["search_nodes"] }
    : { "read-readme": ["read_file"], "read-two": ["read_text_file", "read_multiple_files"], "list-src": ["directory_tree"], "dump-memory": ["search_nodes"] };
  return { toolCalls: (picks[id] ?? WORKSPACE_PICKS.right[id]).map((name) => ({ name, arguments: {} })) };
}

describe("variants and compare", () => {
  it("runs a variant of the descriptions and compares it with the baseline: pass rate, precision/recall/F1 deltas, cases, proposal", async () => {
    provider = await startScriptedProvider(router);
    const dir = mkdtempSync(join(tmpdir(), "variant-"));
    const common = [join(EXAMPLE, "evals.yaml"), "--model", "openai-compatible:router", "--base-url", provider.baseURL];
    await quietly(() => runCommand(select, { rawArgs: [...common, "--out", join(dir, "base.ndjson")] }).then(() => undefined));
    const variantRun = await quietly(() =>
      runCommand(select, { rawArgs: [...common, "--variant", join(EXAMPLE, "variants/clearer-reads.yaml"), "--out", join(dir, "clearer.ndjson")] }).then(
        () => undefined,
      ),
    );
    expect(variantRun).toContain("Tool selection: openai-compatible:router (variant clearer-reads): 36 of 36 trials scored\n  top-1   33/36  91.7%");
    // The variant changed what was offered, and nothing else: the capture on disk is untouched.
    const offered = (provider.requests.at(-1)!.body.tools as Array<{ function: { name: string; description: string } }>).map((t) => t.function);
    expect(offered.find((t) => t.name === "read_file")!.description).toBe("DEPRECATED: do not use. Same as read_text_file.");
    expect(offered.find((t) => t.name === "write_file")!.description).toMatch(/^Create a new file or completely overwrite/);
    expect(readFileSync(join(EXAMPLE, "mcp/files/tools.json"), "utf8")).toContain(
      '"description": "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead."',
    );

    const result = await runInProcess(compare, [join(dir, "base.ndjson"), join(dir, "clearer.ndjson"), "--format", "json"]);
    expect(result.code).toBe(0);
    const c = JSON.parse(result.stdout);
    expect([c.baseline.label, c.candidate.label]).toEqual(["baseline", "clearer-reads"]);
    expect([c.baseline.passes, c.baseline.scored, c.candidate.passes, c.candidate.scored]).toEqual([32, 36, 33, 36]);
    expect(c.passRateDelta).toBeCloseTo(1 / 36, 12);
    expect(c.improved).toEqual(["read-readme", "read-two"]);
    expect(c.regressed).toEqual(["read-head"]);
    // Cases are listed by id (a merged run and a single file list them alike).
    expect(c.unchangedFailing).toEqual(["dump-memory", "list-src"]);
    const tool = (name: string) => c.tools.find((t: { tool: string }) => t.tool === name);
    // read_text_file: baseline TP 2 (read-head, read-tail), FP 1 (read-two), FN 2 (read-readme, read-package-and-readme);
    // candidate TP 2 (read-readme, read-tail), FP 0, FN 2 (read-head, read-package-and-readme).
    expect(tool("files/read_text_file").baseline).toEqual({ precision: 2 / 3, recall: 0.5, f1: expect.closeTo(4 / 7, 12) });
    expect(tool("files/read_text_file").candidate).toEqual({ precision: 1, recall: 0.5, f1: expect.closeTo(2 / 3, 12) });
    expect(tool("files/read_text_file").delta.precision).toBeCloseTo(1 / 3, 12);
    expect(tool("files/read_text_file").delta.recall).toBe(0);
    expect(tool("files/read_text_file").delta.f1).toBeCloseTo(2 / 21, 12);
    // read_multiple_files: perfect before; the candidate also calls it for read-head (FP 1).
    expect(tool("files/read_multiple_files").delta.precision).toBeCloseTo(-1 / 3, 12);
    expect(tool("files/read_multiple_files").delta.f1).toBeCloseTo(-0.2, 12);
    expect(tool("files/read_file")).toEqual({
      tool: "files/read_file",
      baseline: { precision: 0, recall: 0, f1: 0 },
      candidate: { precision: 0, recall: 0, f1: 0 },
      delta: { precision: 0, recall: 0, f1: 0 },
    });
    // +2.8 points against a noise of 1.96·sqrt(p(1−p)(1/36+1/36)) with p = 65/72: 13.7 points.
    expect(c.noise).toBeCloseTo(1.96 * Math.sqrt((65 / 72) * (7 / 72) * (2 / 36)), 12);
    expect(c.proposal.decision).toBe("inconclusive");

    const text = await runInProcess(compare, [join(dir, "base.ndjson"), join(dir, "clearer.ndjson")]);
    expect(text.stdout).toContain("  pass rate  32/36 88.9% → 33/36 91.7%  (+2.8 points; noise ±13.7)\n");
    expect(text.stdout).toContain("    files/read_text_file       P 0.667 → 1.000 (+0.333)  R 0.500 → 0.500 (±0.000)  F1 0.571 → 0.667 (+0.095)\n");
    expect(text.stdout).toContain(
      "proposal: inconclusive: pass rate 88.9% → 91.7% (+2.8 points) is inside the noise (±13.7 points at z=1.96, 36 and 36 trials): run more iterations\n",
    );
    const markdown = await runInProcess(compare, [join(dir, "base.ndjson"), join(dir, "clearer.ndjson"), "--format", "markdown"]);
    expect(markdown.stdout).toContain("## baseline → clearer-reads: **inconclusive**");
  });

  it("applies a difference beyond the noise, rejects one as far the other way, and decides nothing on a PRELIMINARY run", () => {
    const lines = (passes: number, of: number, notRun = 0): TrialLine[] =>
      Array.from({ length: of + notRun }, (_, i) => ({
        case: `c${i}`,
        iteration: 0,
        model: "m",
        status: i < passes ? "pass" : i < of ? "fail" : "not_run",
        assertions: [],
        calls: 0,
        requests: 1,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        durationMs: 0,
        startedAt: "",
      }));
    // 20/36 → 34/36: +38.9 points; noise 1.96·sqrt(0.75·0.25·2/36) = 20.0 points.
    expect(compareRuns(lines(20, 36), lines(34, 36)).proposal.decision).toBe("apply");
    expect(compareRuns(lines(34, 36), lines(20, 36)).proposal.decision).toBe("reject");
    expect(compareRuns(lines(34, 36), lines(20, 36)).regressed).toHaveLength(14);
    const preliminary = compareRuns(lines(20, 36), lines(34, 35, 1));
    expect(preliminary.proposal).toEqual({
      decision: "inconclusive",
      reason: expect.stringContaining("1 trials were not run: a PRELIMINARY run decides nothing"),
    });
  });

  it("refuses a variant naming a tool that is not served, with a did-you-mean at file:line:column", async () => {
    const { fakes } = await loadFakes(join(EXAMPLE, "fakes.yaml"), { clock: "2026-10-01T09:00:00.000Z" });
    const file = join(mkdtempSync(join(tmpdir(), "variant-")), "bad.yaml");
    writeFileSync(file, "id: typo\ntools:\n  files/read_txt_file: { description: x }\n  open_nodes: { inputSchema: { type: string } }\n");
    const error = (() => {
      try {
        loadVariant(file, selectionCatalog(fakes));
      } catch (e) {
        return e as ManifestError;
      }
    })();
    expect(error).toBeInstanceOf(ManifestError);
    expect(error!.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      '3:3 E_UNKNOWN_TOOL no served MCP tool is named "files/read_txt_file". Did you mean "files/read_text_file"?',
      "4:30 E_SCHEMA `inputSchema` is a JSON Schema of an object ({ type: object, properties: ... })",
    ]);
  });

  it("applies a variant to the tools a full eval case offers the model, leaving the rest as served", () => {
    const served = [
      { server: "files", tool: { name: "read_file", description: "old", inputSchema: { type: "object" } }, client: null },
      { server: "memory", tool: { name: "read_graph", description: "graph", inputSchema: { type: "object" } }, client: null },
    ];
    const variant = { id: "v", tools: { read_file: { description: "new", inputSchema: { type: "object", properties: { path: { type: "string" } } } } } };
    expect(applyVariant(served, variant).map((t) => [t.tool.name, t.tool.description, t.tool.inputSchema])).toEqual([
      ["read_file", "new", { type: "object", properties: { path: { type: "string" } } }],
      ["read_graph", "graph", { type: "object" }],
    ]);
    expect(served[0].tool.description).toBe("old");
  });
});
