import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runCommand } from "citty";
import select from "../../cli/select.js";
import { evaluateGate } from "../../engine/judge/selection/gate.js";
import { type ScriptedProvider, type ScriptedReply, type ScriptedRequest, startScriptedProvider } from "../support/scripted-provider.js";
import { ROOT } from "../support/examples.js";
import { queryOf, WORKSPACE_PICKS } from "./workspace-picks.js";

const EVALS = join(ROOT, "examples/workspace/evals.yaml");
let provider: ScriptedProvider | undefined;

afterEach(async () => {
  await provider?.close();
  provider = undefined;
  vi.unstubAllEnvs();
});

/** Runs the command in-process: what it printed and the exit code it chose. */
async function selectionCommand(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
  process.exitCode = undefined;
  try {
    await runCommand(select, { rawArgs: args });
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout, stderr, code };
}

/** A provider that picks by query, from `picks` (fixture id → tools called), or fails as told. */
function picking(picks: Record<string, string[]>, fail: (id: string, request: ScriptedRequest) => ScriptedReply | undefined = () => undefined) {
  const byQuery = new Map(Object.entries(WORKSPACE_PICKS.queries).map(([id, query]) => [query, id]));
  return (request: ScriptedRequest): ScriptedReply => {
    const id = byQuery.get(queryOf(request));
    if (id === undefined) throw new Error(`unexpected query ${queryOf(request)}`);
    return (
      fail(id, request) ?? { toolCalls: (picks[id] ?? WORKSPACE_PICKS.right[id]).map((name) => ({ name, arguments: {} })), usage: { input: 1000, output: 50 } }
    );
  };
}

const outFile = () => join(mkdtempSync(join(tmpdir(), "selection-run-")), "results.ndjson");
const base = (out: string) => [EVALS, "--model", "openai-compatible:router", "--base-url", provider!.baseURL, "--out", out, "--concurrency", "3"];

/** Four misses: top-1 32/36, top-3 34/36. */
const MISSES = {
  "read-readme": ["read_file"],
  "read-two": ["read_text_file", "read_multiple_files"],
  "list-src": ["directory_tree", "list_directory"],
  "dump-memory": ["search_nodes"],
};

describe("select against a scripted provider", () => {
  it("scores top-1, top-3 and each area with exact figures, offering the whole catalog as captured with a forced call", async () => {
    provider = await startScriptedProvider(picking(MISSES));
    const out = outFile();
    const { stdout, code } = await selectionCommand([...base(out), "--format", "json"]);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.score).toMatchObject({ trials: 36, scored: 36, notRun: 0, k: 3, top1: { hits: 32, of: 36 }, topK: { hits: 34, of: 36 } });
    expect(summary.score.top1.rate).toBeCloseTo(32 / 36, 10);
    expect(Object.fromEntries(summary.score.areas.map((a: any) => [a.area, [a.top1.hits, a.topK.hits, a.top1.of]]))).toEqual({
      "read-files": [4, 5, 6],
      "write-files": [6, 6, 6],
      "browse-files": [5, 6, 6],
      remember: [6, 6, 6],
      forget: [6, 6, 6],
      recall: [5, 5, 6],
    });
    expect(summary.gate.decision).toBe("watch");
    expect(summary.confusions).toEqual([
      { expected: "files/list_directory", chosen: "files/directory_tree", count: 1 },
      { expected: "files/read_multiple_files", chosen: "files/read_text_file", count: 1 },
      { expected: "files/read_text_file", chosen: "files/read_file", count: 1 },
      { expected: "memory/read_graph", chosen: "memory/search_nodes", count: 1 },
    ]);
    // One request per fixture, the 23 tools exactly as captured, a tool call forced.
    expect(provider.requests).toHaveLength(36);
    const body = provider.requests[0].body as { tools: Array<{ function: { name: string; description: string; parameters: unknown } }>; tool_choice: unknown };
    expect(body.tool_choice).toBe("required");
    expect(body.tools).toHaveLength(23);
    const captured = JSON.parse(readFileSync(join(ROOT, "examples/workspace/mcp/memory/tools.json"), "utf8")).tools.find(
      (t: { name: string }) => t.name === "open_nodes",
    );
    expect(body.tools.find((t) => t.function.name === "open_nodes")!.function).toMatchObject({
      description: captured.description,
      parameters: captured.inputSchema,
    });
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(36);
    expect(lines.find((l) => l.case === "read-two")).toMatchObject({
      kind: "selection",
      status: "fail",
      area: "read-files",
      expected: ["files/read_multiple_files"],
      chosen: ["files/read_text_file", "files/read_multiple_files"],
      model: "openai-compatible:router",
      usage: { inputTokens: 1000, outputTokens: 50 },
    });
  });

  it("decides remediate, watch and fine on the same run by its thresholds, resuming without a request", async () => {
    provider = await startScriptedProvider(picking(MISSES));
    const out = outFile();
    const watch = await selectionCommand(base(out));
    expect(watch.stdout).toContain("  top-1   32/36  88.9%\n  top-3   34/36  94.4%\n");
    expect(watch.stdout).toContain("    read-files    top-1  4/6  66.7%   top-3  5/6  83.3%\n");
    expect(watch.stdout).toContain("  gate: watch: top-1 88.9% (remediate below 85.0%, watch below 90.0%)\n    Keep watching:");
    const fine = await selectionCommand([...base(out), "--gate-watch", "0.88"]);
    expect(fine.stdout).toContain("  gate: fine: top-1 88.9% (remediate below 85.0%, watch below 88.0%)\n    No catalog work needed");
    const remediate = await selectionCommand([...base(out), "--gate-remediate", "0.9", "--gate-watch", "0.95"]);
    expect(remediate.stdout).toContain("  gate: remediate: top-1 88.9% (remediate below 90.0%, watch below 95.0%)\n    Remediate the catalog");
    expect(remediate.stdout).toContain("    files/list_directory → files/directory_tree  ×1\n");
    expect([watch.code, fine.code, remediate.code]).toEqual([0, 0, 0]);
    expect(provider.requests).toHaveLength(36);
    // --fresh asks every fixture again.
    expect((await selectionCommand([...base(out), "--fresh"])).code).toBe(0);
    expect(provider.requests).toHaveLength(72);
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(36);
  });

  it("scores a call to a tool the catalog does not hold as a wrong choice, not as a lost trial", async () => {
    provider = await startScriptedProvider(picking({ "read-readme": ["cat_file"] }));
    const out = outFile();
    const { stdout, code } = await selectionCommand([...base(out), "--limit", "2", "--format", "json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).score).toMatchObject({ trials: 2, scored: 2, notRun: 0, top1: { hits: 1, of: 2 } });
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.case === "read-readme")).toMatchObject({ status: "fail", chosen: ["cat_file"] });
  });

  it("scores a pick whose arguments nest thousands deep as a wrong choice, and the run goes on", async () => {
    const deep = `{"path":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    provider = await startScriptedProvider(
      picking({}, (id) => (id === "read-readme" ? { toolCalls: [{ name: "read_text_file", argumentsText: deep }] } : undefined)),
    );
    const out = outFile();
    const { stdout, code } = await selectionCommand([...base(out), "--limit", "2", "--format", "json"]);
    expect(JSON.parse(stdout).score).toMatchObject({ trials: 2, scored: 2, notRun: 0, top1: { hits: 1, of: 2 } });
    expect(code).toBe(0);
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.case === "read-readme")).toMatchObject({ status: "fail", chosen: [] });
    expect(lines.find((l) => l.case === "read-readme").reason).toMatch(/nested deeper than 1000 levels/);
  });

  it("places the gate's boundaries: below remediate, from remediate to watch, from watch up", () => {
    expect([0.8499, 0.85, 0.8999, 0.9, 1].map((top1) => evaluateGate(top1).decision)).toEqual(["remediate", "watch", "watch", "fine", "fine"]);
    expect(evaluateGate(0.7, { remediate: 0.6, watch: 0.75 }).decision).toBe("watch");
    expect(() => evaluateGate(0.5, { remediate: 0.9, watch: 0.8 })).toThrow(/remediate threshold \(0.9\) is above its watch threshold \(0.8\)/);
  });

  it("is skipped with exit 0 without a key, naming the variable, and writes nothing", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    const out = outFile();
    const { stdout, code } = await selectionCommand([EVALS, "--model", "anthropic:claude-sonnet-4-5", "--out", out]);
    expect(code).toBe(0);
    expect(stdout).toBe("[eval-simulate] skipped: no API key: set ANTHROPIC_API_KEY to run anthropic:claude-sonnet-4-5 (36 selection fixtures not run)\n");
    expect(existsSync(out)).toBe(false);
  });

  it("is PRELIMINARY (exit 2) when requests fail, scores only what reached the model, and resumes the rest", async () => {
    let healthy = false;
    provider = await startScriptedProvider(picking({}, (id) => (!healthy && (id === "tree" || id === "unlink") ? { status: 503 } : undefined)));
    const out = outFile();
    const first = await selectionCommand([...base(out), "--retries", "0"]);
    expect(first.code).toBe(2);
    expect(first.stdout).toContain("Tool selection: openai-compatible:router: 34 of 36 trials scored, 2 not run\n  top-1   34/34  100.0%\n");
    expect(first.stdout).toContain("  gate: fine (PRELIMINARY)");
    expect(first.stdout).toContain("PRELIMINARY: 2 trials did not reach the model (not scored); do not decide on this gate.");
    const notRun = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((l) => l.status === "not_run");
    expect(notRun.map((l) => [l.case, l.chosen])).toEqual(
      expect.arrayContaining([
        ["tree", []],
        ["unlink", []],
      ]),
    );
    expect(notRun[0].reason).toMatch(/transient.*HTTP 503/);
    healthy = true;
    const second = await selectionCommand(base(out));
    expect(second.code).toBe(0);
    expect(provider.requests).toHaveLength(38);
    expect(second.stdout).toContain("36 of 36 trials scored\n  top-1   36/36  100.0%\n");
  });

  it("stops at a fatal error (401) and at the budget, PRELIMINARY both", async () => {
    provider = await startScriptedProvider(() => ({ status: 401, body: { error: { message: "invalid api key" } } }));
    const fatal = await selectionCommand([...base(outFile()), "--concurrency", "1"]);
    expect(fatal.code).toBe(2);
    expect(provider.requests).toHaveLength(1);
    expect(fatal.stdout).toContain("1 not run, 35 not started");
    expect(fatal.stdout).toMatch(/stopped: \[eval-simulate\] the model request failed \(fatal, after 1 attempt\): HTTP 401/);
    await provider.close();

    // gpt-4.1 at $2/$8 per million tokens: 100,000 in and 10,000 out cost $0.28 a request; a
    // fourth would cross $1.
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
    provider = await startScriptedProvider(() => ({ toolCalls: [{ name: "read_graph", arguments: {} }], usage: { input: 100_000, output: 10_000 } }));
    const budget = await selectionCommand([
      EVALS,
      "--model",
      "openai:gpt-4.1",
      "--base-url",
      provider.baseURL,
      "--out",
      outFile(),
      "--concurrency",
      "1",
      "--budget-usd",
      "1",
    ]);
    expect(budget.code).toBe(2);
    expect(provider.requests).toHaveLength(3);
    expect(budget.stdout).toContain("3 of 36 trials scored, 33 not started");
    expect(budget.stdout).toContain("spent $0.8400");
    expect(budget.stdout).toContain("33 never started (the budget)");
  });

  it("refuses bad flags as usage errors (exit 2)", async () => {
    expect((await selectionCommand([EVALS, "--model", "nope"])).code).toBe(2);
    const unknown = await selectionCommand([EVALS, "--model", "openai:gpt-4.1", "--topk", "3"]);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("unknown option --topk")]);
    const gate = await selectionCommand([EVALS, "--model", "openai:gpt-4.1", "--gate-watch", "90"]);
    expect(gate.stderr).toContain('--gate-watch takes a share between 0 and 1 (0.85), not "90"');
  });
});
