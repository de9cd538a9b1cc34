import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AssertionResult } from "../../engine/judge/evals/types.js";
import { JUDGE_PROMPT_VERSION, JUDGMENT_SCHEMA } from "../../engine/eval/rubrics/judge-prompt.js";
import { judgmentKey, judgmentsFile } from "../../engine/eval/rubrics/judgment-cache.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";
import { type ScriptedProvider, type ScriptedReply, type ScriptedRequest, startScriptedProvider } from "../support/scripted-provider.js";

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const noWait = { retries: 1, sleep: async () => undefined };

/** A case whose script logs a note on Umbrella Health and says so, graded by `rubrics` (YAML). */
const noteCase = (id: string, rubrics: string, extra = "") => `
  - id: ${id}
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Log a kick-off note on Umbrella Health.
    host: { type: script }
    ${extra}
    script:
      calls:
        - { tool: crm/create-note, arguments: { parent_object: companies, parent_record_id: ${UMBRELLA}, title: Kick-off, content: Booked. } }
      answer: Kick-off noted on Umbrella Health.
    expect:
      calls: [{ tool: crm/create-note }]
      rubrics:
${rubrics}
`;
const rubric = (name: string, extra = "") =>
  `        - { name: ${name}, rubric: "${name.toUpperCase()}: the reply says a note was logged on Umbrella Health."${extra} }`;

/** The judge's answers, chosen by the criterion's first word (the rubric's name in capitals). */
function judgeScript(request: ScriptedRequest, attempts: Map<string, number>): ScriptedReply {
  const which = /<criterion>\n([A-Z-]+):/.exec(request.text)?.[1] ?? "";
  const n = (attempts.get(which) ?? 0) + 1;
  attempts.set(which, n);
  if (which === "GOOD") return { json: { verdict: "pass", score: 0.9, reasoning: "It says the note was logged." } };
  if (which === "BAD") return { json: { verdict: "fail", score: 0.2, reasoning: "It names no company." } };
  if (which === "MALFORMED")
    return n === 1 ? { jsonText: "Sure! The answer passes." } : { json: { verdict: "pass", score: 0.8, reasoning: "Logged, as asked." } };
  if (which === "GARBLED") return { json: { verdict: "maybe", score: 3, reasoning: "" } };
  if (which === "DOWN") return { status: 503 };
  return { json: { verdict: "pass", score: 1, reasoning: "Fine." } };
}

const results = (line: { assertions: unknown[] }) => line.assertions as AssertionResult[];
const rubricResult = (line: { assertions: unknown[] }, name: string) => results(line).find((r) => r.kind === "rubric" && r.assertion.endsWith(` ${name}`))!;

describe("rubric assertions judged by a model through structured output, on a scripted provider on loopback", () => {
  it("passes, fails, asks again after a malformed reply, and leaves a provider error or endless nonsense not evaluated", async () => {
    const attempts = new Map<string, number>();
    provider = await startScriptedProvider((request) => judgeScript(request, attempts));
    const rubrics = [rubric("good"), rubric("bad"), rubric("malformed"), rubric("garbled"), rubric("down")].join("\n");
    const { file } = writeEvals(noteCase("graded", rubrics), `judgeModel: openai:gpt-4.1-mini\njudgeBaseURL: ${provider.baseURL}`);
    const result = await runEvals({ evals: file, env: { OPENAI_API_KEY: "sk-test" }, retry: noWait });
    const line = result.lines[0];
    expect(rubricResult(line, "good")).toMatchObject({ status: "passed", message: "pass, score 0.9, by openai:gpt-4.1-mini: It says the note was logged." });
    expect(rubricResult(line, "bad")).toMatchObject({ status: "failed", message: "fail, score 0.2, by openai:gpt-4.1-mini: It names no company." });
    expect(rubricResult(line, "malformed")).toMatchObject({ status: "passed", evidence: { verdict: "pass", score: 0.8, cached: false } });
    expect(rubricResult(line, "garbled")).toMatchObject({
      status: "not_evaluated",
      message: 'openai:gpt-4.1-mini gave no valid judgment in 3 attempts (the last: verdict is "maybe", not "pass" or "fail")',
    });
    expect(rubricResult(line, "down")).toMatchObject({ status: "not_evaluated" });
    expect(rubricResult(line, "down").message).toMatch(/^openai:gpt-4\.1-mini could not judge it: .*HTTP 503/);
    expect(rubricResult(line, "down").unjudged).toBeUndefined();
    expect(line.status).toBe("fail");
    expect([attempts.get("GOOD"), attempts.get("MALFORMED"), attempts.get("GARBLED"), attempts.get("DOWN")]).toEqual([1, 2, 3, 2]);

    // Every request asked for the judgment's schema; the second malformed one said why the first was refused.
    const judged = provider.requests.filter((r) => r.text.includes("<criterion>"));
    expect(judged.every((r) => r.structured?.channel === "response_format" && JSON.stringify(r.structured.schema) === JSON.stringify(JUDGMENT_SCHEMA))).toBe(
      true,
    );
    expect(judged.filter((r) => r.text.includes("MALFORMED"))[1].text).toMatch(
      /Your previous reply was not a valid judgment \(it did not parse as the judgment's JSON/,
    );
    expect(judged[0].text).toContain("<answer>\nKick-off noted on Umbrella Health.\n</answer>");
    expect(judged[0].text).toContain("<task>\nLog a kick-off note on Umbrella Health.\n</task>");

    // Its tokens and cost are on the line and in the summary: 100 in and 20 out per answered request at $0.40/$1.60 per million.
    const requests = judged.filter((r) => !r.text.includes("DOWN:")).length;
    expect(requests).toBe(7);
    expect(line.judge).toMatchObject({ requests, usage: { inputTokens: 100 * requests, outputTokens: 20 * requests }, judged: 3, cached: 0 });
    expect(line.judge!.costUsd).toBeCloseTo((requests * (100 * 0.4 + 20 * 1.6)) / 1e6);
    expect(result.cases[0].judge?.requests).toBe(requests);
    expect(result.costUsd).toBeCloseTo(line.judge!.costUsd);

    // The judgments are cached beside the evals file; a provider error is not.
    const cache = JSON.parse(readFileSync(judgmentsFile(file), "utf8")) as {
      judgments: Record<string, { rubric: string; verdict: string; promptVersion: string }>;
    };
    expect(
      Object.values(cache.judgments)
        .map((j) => `${j.rubric} ${j.verdict} ${j.promptVersion}`)
        .sort(),
    ).toEqual([`bad fail ${JUDGE_PROMPT_VERSION}`, `good pass ${JUDGE_PROMPT_VERSION}`, `malformed pass ${JUDGE_PROMPT_VERSION}`]);

    // The same run judged again reads them back: only what was not cached is asked again.
    const before = provider.requests.length;
    const again = await runEvals({ evals: file, env: { OPENAI_API_KEY: "sk-test" }, retry: noWait });
    expect(rubricResult(again.lines[0], "good")).toMatchObject({
      status: "passed",
      message: "pass, score 0.9, by openai:gpt-4.1-mini (cached): It says the note was logged.",
    });
    expect(again.lines[0].judge).toMatchObject({ cached: 3, judged: 0 });
    expect(provider.requests.slice(before).every((r) => /GARBLED|DOWN/.test(r.text))).toBe(true);
  }, 120_000);

  it("judges through Anthropic's structured output too, and passes a rubric by its threshold", async () => {
    provider = await startScriptedProvider(() => ({ json: { verdict: "fail", score: 0.7, reasoning: "Mostly there." } }));
    const { file } = writeEvals(
      noteCase("anthropic-judged", [rubric("lenient", ", threshold: 0.6"), rubric("strict", ", threshold: 0.75")].join("\n")),
      "judgeModel: anthropic:claude-sonnet-4-5",
    );
    const result = await runEvals({ evals: file, env: { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: provider.baseURL }, retry: noWait });
    expect(provider.requests.map((r) => r.structured?.channel)).toEqual(["output_format", "output_format"]);
    expect(rubricResult(result.lines[0], "lenient")).toMatchObject({
      status: "passed",
      message: "fail, score 0.7 (threshold 0.6), by anthropic:claude-sonnet-4-5: Mostly there.",
    });
    expect(rubricResult(result.lines[0], "strict").status).toBe("failed");
  }, 60_000);

  it("never passes an unjudged rubric without a key or a cached judgment, and exits 0 when that is all that is missing (a real process)", async () => {
    const { file, dir } = writeEvals(
      noteCase("keyless", rubric("good")) +
        noteCase("keyless-by-score", rubric("good", ", weight: 3"), "minScore: 0.5") +
        noteCase("fails-anyway", rubric("good")).replace("calls: [{ tool: crm/create-note }]", "calls: [{ tool: crm/update-record }]"),
      "judgeModel: openai:gpt-4.1-mini",
    );
    const result = await runEvals({ evals: file, env: {} });
    const [keyless, byScore, failing] = ["keyless", "keyless-by-score", "fails-anyway"].map((id) => result.lines.find((l) => l.case === id)!);
    expect(keyless).toMatchObject({ status: "skipped", score: 1, scoring: { passed: 1, of: 1, notEvaluated: 1 } });
    expect(keyless.reason).toBe("rubric not judged: no judgment cached and no key: set OPENAI_API_KEY to judge with openai:gpt-4.1-mini");
    expect(rubricResult(keyless, "good")).toMatchObject({ status: "not_evaluated", passed: false, unjudged: true });
    // With minScore the unjudged rubric (weight 3 of 4) could still fail the trial: not a pass either.
    expect(byScore.status).toBe("skipped");
    expect(failing.status).toBe("fail");
    expect(result.cases.map((c) => c.verdict)).toEqual(["skipped", "skipped", "fail"]);
    expect(result.notes.join("\n")).toContain("rubrics not judged: no judgment cached and no key: set OPENAI_API_KEY");
    expect(existsSync(judgmentsFile(file))).toBe(false);

    const cli = await runCli(["eval", file, "--case", "keyless,keyless-by-score", "--out", join(dir, "out.ndjson")], { env: { OPENAI_API_KEY: "" } });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/SKIPPED\s+keyless\b/);
    expect(cli.stdout).toContain("set OPENAI_API_KEY to judge with openai:gpt-4.1-mini");
  }, 120_000);

  it("judges from the cache alone with --dry, never asking the model, and asks again with --refresh-judgments", async () => {
    let verdict: "pass" | "fail" = "pass";
    provider = await startScriptedProvider(() => ({ json: { verdict, score: verdict === "pass" ? 1 : 0, reasoning: `Judged ${verdict}.` } }));
    const { file } = writeEvals(noteCase("cached", rubric("good")), `judgeModel: openai:gpt-4.1-mini\njudgeBaseURL: ${provider.baseURL}`);
    const env = { OPENAI_API_KEY: "sk-test" };
    const dryFirst = await runEvals({ evals: file, dry: true, env });
    expect(provider.requests).toHaveLength(0);
    expect(dryFirst.lines[0]).toMatchObject({ status: "skipped" });
    expect(rubricResult(dryFirst.lines[0], "good").message).toMatch(
      /^no judgment cached in .*evals\.judgments\.json for openai:gpt-4\.1-mini \(--dry judges rubrics from the cache only\)$/,
    );

    expect((await runEvals({ evals: file, env })).lines[0].status).toBe("pass");
    expect(provider.requests).toHaveLength(1);
    const dry = await runEvals({ evals: file, dry: true, env: {} });
    expect(dry.lines[0].status).toBe("pass");
    expect(rubricResult(dry.lines[0], "good").evidence).toMatchObject({ cached: true, reasoning: "Judged pass." });
    expect(provider.requests).toHaveLength(1);

    verdict = "fail";
    await expect(runEvals({ evals: file, dry: true, refreshJudgments: true, env })).rejects.toThrow(
      /--refresh-judgments asks the judge model again, and --dry asks no model/,
    );
    const refreshed = await runEvals({ evals: file, refreshJudgments: true, env });
    expect(provider.requests).toHaveLength(2);
    expect(refreshed.lines[0].status).toBe("fail");
    expect((await runEvals({ evals: file, dry: true, env: {} })).lines[0].status).toBe("fail");
  }, 120_000);

  it("counts the judge's spend against the budget, stopping the run before it would cross it", async () => {
    // gpt-4.1 at $2 per million input tokens: each judgment costs $0.20.
    provider = await startScriptedProvider(() => ({ json: { verdict: "pass", score: 1, reasoning: "Fine." }, usage: { input: 100_000, output: 0 } }));
    const { file } = writeEvals(
      noteCase("budgeted", rubric("good"), "iterations: 3\n    accuracyThreshold: 1"),
      `judgeModel: openai:gpt-4.1\njudgeBaseURL: ${provider.baseURL}`,
    );
    const result = await runEvals({ evals: file, concurrency: 1, budgetUsd: 0.3, env: { OPENAI_API_KEY: "sk-test" } });
    expect(provider.requests).toHaveLength(1);
    expect(result.costUsd).toBeCloseTo(0.2);
    expect(result.stopped).toMatch(/budget of \$0.3/);
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2 });
    // A judge without a price cannot be budgeted.
    const unpriced = writeEvals(noteCase("unpriced", rubric("good")), `judgeModel: openai-compatible:qwen3\njudgeBaseURL: ${provider.baseURL}`);
    await expect(runEvals({ evals: unpriced.file, budgetUsd: 1, env: {} })).rejects.toThrow(/a budget needs the price of openai-compatible:qwen3/);
  }, 120_000);

  it("asks once for trials that run at the same time with the same inputs", async () => {
    provider = await startScriptedProvider(() => ({ json: { verdict: "pass", score: 1, reasoning: "Fine." } }));
    const { file } = writeEvals(
      noteCase("at-once", rubric("good"), "iterations: 3\n    accuracyThreshold: 1"),
      `judgeModel: openai:gpt-4.1-mini\njudgeBaseURL: ${provider.baseURL}`,
    );
    const result = await runEvals({ evals: file, concurrency: 3, env: { OPENAI_API_KEY: "sk-test" } });
    expect(provider.requests).toHaveLength(1);
    expect(result.lines.map((l) => l.status)).toEqual(["pass", "pass", "pass"]);
    expect(result.cases[0].judge).toMatchObject({ requests: 1, judged: 1, cached: 2 });
  }, 60_000);

  it("refuses a rubric that no judge model grades, before running anything", async () => {
    const { file } = writeEvals(noteCase("no-judge", rubric("good")));
    await expect(runEvals({ evals: file, env: {} })).rejects.toThrow(
      '[eval-simulate] no judge model for the rubric "no-judge: good": set judgeModel at the top of the evals file, model on the rubric, or --judge-model',
    );
    await expect(runEvals({ evals: file, dry: true, judgeModel: "gpt-4.1-mini", env: {} })).rejects.toThrow(
      /a model is "<provider>:<model>" .*; not "gpt-4.1-mini"/,
    );
    const cli = await runCli(["eval", file, "--dry", "--judge-model", "openai:gpt-4.1-mini"], { env: { OPENAI_API_KEY: "" } });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/SKIPPED\s+no-judge/);
  }, 60_000);
});

describe("the judgment cache's key", () => {
  const request = {
    case: "c",
    name: "names the deal",
    rubric: "Names the deal.",
    task: "Close Acme.",
    answer: "Acme is won.",
    transcript: [{ role: "user", content: "Close Acme." }],
    context: { stage: "won" },
  };
  const model = "openai:gpt-4.1-mini";

  it("changes with each thing the judge is shown, its model and the prompt's version, and with nothing else", () => {
    const base = judgmentKey(request, model);
    const variants = [
      judgmentKey({ ...request, rubric: "Names the deal and the task." }, model),
      judgmentKey({ ...request, task: "Close Globex." }, model),
      judgmentKey({ ...request, answer: "Acme is lost." }, model),
      judgmentKey({ ...request, transcript: [{ role: "user", content: "Close Globex." }] }, model),
      judgmentKey({ ...request, context: { stage: "lost" } }, model),
      judgmentKey({ ...request, context: undefined }, model),
      judgmentKey(request, "anthropic:claude-sonnet-4-5"),
      judgmentKey(request, model, "rubric-judge/0"),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
    // The name, case and key order are not shown to the judge: the same judgment.
    expect(judgmentKey({ ...request, name: "another name", case: "another case" }, model)).toBe(base);
    expect(
      judgmentKey(
        {
          context: { stage: "won" },
          answer: "Acme is won.",
          rubric: "Names the deal.",
          task: "Close Acme.",
          transcript: request.transcript,
          case: "c",
          name: "n",
        },
        model,
      ),
    ).toBe(base);
  });
});
