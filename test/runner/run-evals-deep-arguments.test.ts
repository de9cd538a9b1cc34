import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderJunit } from "../../engine/eval/results/report-junit.js";
import { renderSummaryMarkdown, renderSummaryText } from "../../engine/eval/results/report-text.js";
import { readResults } from "../../engine/eval/results/results-file.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { summarize } from "../../engine/eval/results/run-summary.js";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";
import { type ScriptedProvider, startScriptedProvider } from "../support/scripted-provider.js";

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
/** create-note's arguments with `content` nested `levels` objects deep, as JSON text. */
const deepNote = (levels: number) =>
  `{"parent_object":"companies","parent_record_id":"${UMBRELLA}","title":"Kick-off","content":${'{"a":'.repeat(levels)}1${"}".repeat(levels)}}`;
const search = { name: "search-records", arguments: { object: "companies", query: "Umbrella" } };

/** A run whose model searches, then creates a note with `content` nested `levels` deep, then answers; its results file written. */
async function deepRun(model: string, levels: number, env: NodeJS.ProcessEnv = {}) {
  provider = await startScriptedProvider((_request, index) =>
    index === 0
      ? { toolCalls: [search] }
      : index === 1
        ? { toolCalls: [{ name: "create-note", argumentsText: deepNote(levels) }] }
        : { text: "Kick-off noted." },
  );
  const { file, dir } = writeEvals(`
  - id: deep-arguments
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Log a kick-off note on Umbrella Health.
    maxSteps: 4
    host: { type: model, model: "${model}", baseURL: "${provider.baseURL}" }
    expect:
      calls: [{ tool: crm/create-note, arguments: { parent_record_id: ${UMBRELLA}, content: { $type: string } } }]
      state: { changed: [crm.notes], only: true }
`);
  const out = join(dir, "results.ndjson");
  return { result: await runEvals({ evals: file, env, out }), out };
}

/** The results file reads back, and renders in every format, in-process and by `eval-simulate report`. */
async function rendersEverywhere(out: string) {
  const lines = readResults(out);
  expect(lines.map((line) => line.status)).toEqual(["fail"]);
  const summary = summarize(lines, { planned: [], notes: [] });
  for (const text of [renderSummaryText(summary), renderSummaryMarkdown(summary), renderJunit(summary, lines)]) expect(text).toContain("deep-arguments");
  for (const format of ["json", "junit", "markdown"]) {
    const report = await runCli(["report", out, "--format", format]);
    expect(report.stderr).not.toMatch(/RangeError|call stack/);
    expect(report.stdout).toContain("deep-arguments");
  }
}

describe("a model's tool call with arguments nested thousands deep", () => {
  for (const [provider, model, env] of [
    ["openai-compatible", "openai-compatible:qwen3", {}],
    ["anthropic", "anthropic:claude-sonnet-4-5", { ANTHROPIC_API_KEY: "sk-ant-test" }],
  ] as const) {
    it(`fails the trial (${provider}), judged on the calls before it, with its record and results file kept`, async () => {
      const { result, out } = await deepRun(model, 5000, env);
      const line = result.lines[0];
      expect(line.status).toBe("fail");
      expect(line.reason).toMatch(/nested deeper than 1000 levels|nests too deep to read/);
      expect(line.assertions[0]).toMatchObject({ assertion: "run: agent", passed: false });
      expect(line.session!.record.map((entry) => (entry as { tool: string }).tool)).toEqual(["search-records"]);
      expect(result).toMatchObject({ verdict: "fail", exitCode: 1 });
      await rendersEverywhere(out);
    }, 60_000);
  }

  it("hands arguments nested just under the limit to the fake, which refuses them into the record, and the trial is judged", async () => {
    const { result, out } = await deepRun("openai-compatible:qwen3", 998);
    const line = result.lines[0];
    expect(line.status).toBe("fail");
    expect(line.session!.record.map((entry) => (entry as { tool: string }).tool)).toEqual(["search-records", "create-note"]);
    expect(line.answer).toBe("Kick-off noted.");
    expect(readFileSync(out, "utf8")).toContain("[TOO DEEP]");
    await rendersEverywhere(out);
  }, 60_000);
});
