import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CommandDef, renderUsage } from "citty";
import { afterEach, describe, expect, it, vi } from "vitest";
import evalCommand from "../../cli/eval.js";
import { evalSimulate } from "../../cli/eval-simulate.js";
import { runCliMain } from "../../cli/run-main.js";
import select from "../../cli/select.js";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { runInProcess } from "../support/run-command.js";
import { type ScriptedProvider, startScriptedProvider } from "../support/scripted-provider.js";

const EVALS = join(ROOT, "examples/workspace/evals.yaml");
const INVALID = join(ROOT, "test/fixtures/evals/error-schema.evals.yaml");
const keyless = () => vi.stubEnv("OPENAI_API_KEY", "");
let provider: ScriptedProvider | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  await provider?.close();
  provider = undefined;
});

describe("eval-simulate select", () => {
  it("lists every flag it takes in --help", async () => {
    const usage = await renderUsage(select as CommandDef<any>, evalSimulate);
    const flags = [
      "model",
      "base-url",
      "variant",
      "out",
      "fresh",
      "budget-usd",
      "prices",
      "concurrency",
      "limit",
      "iterations",
      "top-k",
      "gate-remediate",
      "gate-watch",
      "retries",
      "format",
    ];
    expect(flags.filter((flag) => !usage.includes(`--${flag}`))).toEqual([]);
    expect(usage).toContain("USAGE eval-simulate select [OPTIONS] [EVALS]");
    expect(usage).toContain("--format=<text|markdown|json>");
  });

  it("refuses an unknown flag as eval does: exit 2, the same line on stderr, nothing on stdout", async () => {
    const selected = await runInProcess(select, [EVALS, "--model", "openai:gpt-4.1", "--topk", "3"]);
    const evaluated = await runInProcess(evalCommand, [EVALS, "--topk", "3"]);
    expect(selected).toEqual({ code: 2, stdout: "", stderr: "eval-simulate: unknown option --topk (see --help)\n" });
    expect(evaluated).toEqual(selected);
  });

  it("fails on an invalid evals file as eval does: its diagnostics on stderr, exit 2", async () => {
    keyless();
    const selected = await runInProcess(select, [INVALID, "--model", "openai:gpt-4.1"]);
    const evaluated = await runInProcess(evalCommand, [INVALID, "--dry"]);
    expect(selected.code).toBe(2);
    expect(selected.stdout).toBe("");
    expect(selected.stderr).toContain('error-schema.evals.yaml:7:7 error E_UNKNOWN_KEY unknown key "call" in cases[0].expect');
    expect(evaluated).toEqual(selected);
  });

  it("fails on an invalid variant file the same way: exit 2, its diagnostics on stderr", async () => {
    keyless();
    const variant = join(mkdtempSync(join(tmpdir(), "select-variant-")), "variant.yaml");
    writeFileSync(variant, "id: broken\ntools:\n  files/no_such_tool: { description: Nothing }\n");
    const { code, stdout, stderr } = await runInProcess(select, [EVALS, "--model", "openai:gpt-4.1", "--variant", variant]);
    expect([code, stdout]).toEqual([2, ""]);
    expect(stderr).toMatch(/variant\.yaml:3:3 error E_\w+ .*no_such_tool/);
  });

  it("writes usage errors to stderr under its own name, exit 2", async () => {
    const { code, stdout, stderr } = await runInProcess(select, [EVALS, "--model", "openai:gpt-4.1", "--iterations", "0"]);
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: 'eval-simulate select: --iterations takes a whole number of at least 1, not "0"\n',
    });
  });

  it("refuses a --format it does not print with exit 2 and nothing on stdout, as eval does", async () => {
    for (const [command, flags] of [
      ["select", ["--model", "openai:gpt-4.1"]],
      ["eval", ["--dry"]],
    ] as const) {
      const { code, stdout, stderr } = await main([command, EVALS, ...flags, "--format", "junit-ish"]);
      expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
      expect(stderr).toMatch(
        new RegExp(`^eval-simulate ${command}: Invalid value for argument: --format \\(junit-ish\\)\\. Expected one of: text, .* \\(see --help\\)\\n$`),
      );
    }
  });

  it("prints the report on stdout and where the results went on stderr", async () => {
    provider = await startScriptedProvider(() => ({ toolCalls: [{ name: "read_text_file", arguments: {} }] }));
    const out = join(mkdtempSync(join(tmpdir(), "select-out-")), "results.ndjson");
    const { code, stdout, stderr } = await runInProcess(select, [
      EVALS,
      "--model",
      "openai-compatible:router",
      "--base-url",
      provider.baseURL,
      "--limit",
      "1",
      "--out",
      out,
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Tool selection: openai-compatible:router: 1 of 1 trials scored\n/);
    expect(stdout).not.toContain("results:");
    expect(stderr).toBe(`results: ${out}\n`);
  });
});

describe("eval --selection, the old spelling of select", () => {
  it("runs select and says once on stderr that select replaces it", async () => {
    keyless();
    const old = await runInProcess(evalCommand, [EVALS, "--selection", "--model", "openai:gpt-4.1"]);
    const current = await runInProcess(select, [EVALS, "--model", "openai:gpt-4.1"]);
    expect(old.code).toBe(0);
    expect(old.stdout).toBe("[eval-simulate] skipped: no API key: set OPENAI_API_KEY to run openai:gpt-4.1 (36 selection fixtures not run)\n");
    expect(old.stdout).toBe(current.stdout);
    expect(old.stderr).toBe("eval-simulate eval: --selection is deprecated; use eval-simulate select <evals.yaml>\n");
  });

  it("takes select's own flags and refuses eval's", async () => {
    keyless();
    expect((await runInProcess(evalCommand, [EVALS, "--selection", "--model", "openai:gpt-4.1", "--top-k", "2", "--iterations", "3"])).code).toBe(0);
    const refused = await runInProcess(evalCommand, [EVALS, "--selection", "--model", "openai:gpt-4.1", "--dry"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("eval-simulate: unknown option --dry (see --help)\n");
  });

  it("works as a real process", async () => {
    const { code, stdout, stderr } = await runCli(["eval", EVALS, "--selection", "--model", "openai:gpt-4.1"], { env: { OPENAI_API_KEY: "" } });
    expect([code, stdout]).toEqual([0, "[eval-simulate] skipped: no API key: set OPENAI_API_KEY to run openai:gpt-4.1 (36 selection fixtures not run)\n"]);
    expect(stderr.match(/deprecated/g)).toHaveLength(1);
  });
});

/** The bin in-process: what it printed and the exit code it chose. */
async function main(rawArgs: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
  process.exitCode = undefined;
  try {
    await runCliMain(evalSimulate, rawArgs);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stdout, stderr, code };
}
