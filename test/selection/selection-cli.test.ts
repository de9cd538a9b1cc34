import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { type ScriptedProvider, startScriptedProvider } from "../support/scripted-provider.js";
import { queryOf, WORKSPACE_PICKS } from "./workspace-picks.js";

const EVALS = join(ROOT, "examples/workspace/evals.yaml");
let provider: ScriptedProvider | undefined;

afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe("eval-simulate select and compare as processes", () => {
  it("skips without a key (exit 0), runs the fixtures against a provider, and compares two runs", async () => {
    const keyless = await runCli(["select", EVALS, "--model", "openai:gpt-4.1"], { env: { OPENAI_API_KEY: "" } });
    expect([keyless.code, keyless.stdout]).toEqual([
      0,
      "[eval-simulate] skipped: no API key: set OPENAI_API_KEY to run openai:gpt-4.1 (36 selection fixtures not run)\n",
    ]);

    const byQuery = new Map(Object.entries(WORKSPACE_PICKS.queries).map(([id, query]) => [query, id]));
    provider = await startScriptedProvider((request) => {
      const id = byQuery.get(queryOf(request))!;
      return { toolCalls: [{ name: id === "tree" ? "list_directory" : WORKSPACE_PICKS.right[id][0], arguments: {} }] };
    });
    const dir = mkdtempSync(join(tmpdir(), "selection-cli-"));
    const args = ["select", EVALS, "--model", "anthropic:claude-haiku-4-5", "--base-url", provider.baseURL];
    const env = { ANTHROPIC_API_KEY: "sk-ant-test" };
    const base = await runCli([...args, "--out", join(dir, "base.ndjson"), "--format", "markdown"], { env });
    expect(base.code).toBe(0);
    expect(base.stdout).toContain("| **all** | 35/36 (97.2%) | 35/36 (97.2%) |");
    expect(base.stdout).toContain("**Gate: fine**");
    // Anthropic's forced call: tool_choice any.
    expect(provider.requests[0].body.tool_choice).toEqual({ type: "any" });
    const variant = await runCli([...args, "--variant", join(ROOT, "examples/workspace/variants/clearer-reads.yaml"), "--out", join(dir, "variant.ndjson")], {
      env,
    });
    expect(variant.code).toBe(0);
    expect(readFileSync(join(dir, "variant.ndjson"), "utf8").split("\n").filter(Boolean)).toHaveLength(36);
    const compared = await runCli(["compare", join(dir, "base.ndjson"), join(dir, "variant.ndjson")]);
    expect(compared.code).toBe(0);
    expect(compared.stdout).toContain("baseline → clearer-reads\n  pass rate  35/36 97.2% → 35/36 97.2%  (±0.0 points;");
    expect(compared.stdout).toContain("unchanged, failing (1): tree");
    expect(compared.stdout).toMatch(/proposal: inconclusive: /);
  });

  it("takes --prices so a budget can count a model the price table lacks", async () => {
    provider = await startScriptedProvider(() => ({ toolCalls: [{ name: "read_text_file", arguments: {} }], usage: { input: 100_000, output: 0 } }));
    const dir = mkdtempSync(join(tmpdir(), "selection-cli-"));
    const args = [
      "select",
      EVALS,
      "--model",
      "openai-compatible:qwen3",
      "--base-url",
      provider.baseURL,
      "--limit",
      "2",
      "--budget-usd",
      "1",
      "--format",
      "json",
    ];
    const unpriced = await runCli([...args, "--out", join(dir, "a.ndjson")]);
    expect(unpriced.code).toBe(2);
    expect(unpriced.stderr).toMatch(/a budget needs the price of openai-compatible:qwen3/);
    expect(provider.requests).toHaveLength(0);
    writeFileSync(join(dir, "prices.json"), JSON.stringify({ "openai-compatible:qwen3": { input: 1, output: 1 } }));
    const priced = await runCli([...args, "--prices", join(dir, "prices.json"), "--out", join(dir, "b.ndjson")]);
    expect(priced.code).toBe(0);
    expect(provider.requests).toHaveLength(2);
    // Two requests of 100 000 input tokens at $1 per million.
    expect(JSON.stringify(JSON.parse(priced.stdout))).toMatch(/"costUsd":0\.2\b/);
  });
});
