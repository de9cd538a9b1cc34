import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults } from "../../engine/eval/results/results-file.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { scriptHost } from "../../engine/eval/hosts/script-host.js";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";
import { ROOT } from "../support/examples.js";

const CASES = `
  - id: create-umbrella-note
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    iterations: 3
    accuracyThreshold: 1
    host: { type: script }
    script:
      calls:
        - { tool: crm/create-note, arguments: { parent_object: companies, parent_record_id: 0080618c-1fdc-54e1-9e26-73c948373f91, title: Kick-off, content: Kick-off call booked. } }
      answer: Noted.
    expect:
      calls: [{ tool: create-note, count: { exact: 1 } }]
      state: { changed: [crm.notes], only: true }
  - id: expects-a-deal-won
    tags: [broken]
    host: { type: script }
    script:
      calls:
        - { tool: crm/list-tasks, arguments: {} }
      answer: Done.
    expect:
      calls: [{ tool: crm/update-record, arguments: { values: { stage: won } } }]
`;

describe("eval with the script host", () => {
  it("passes every case of examples/crm/evals.yaml with --dry, run as a real process", async () => {
    const { code, stdout, stderr } = await runCli(["eval", "examples/crm/evals.yaml", "--dry"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/PASS: 5 cases \(5 passed, 0 failed\)/);
    expect(stdout).toContain("log-globex-call-note");
    expect(stdout).toMatch(/trials: 8 \(8 passed/);
  }, 60_000);

  it("gives each trial its own world: three trials each add one note to the same starting world", async () => {
    const { file } = writeEvals(CASES);
    const result = await runEvals({ evals: file, cases: ["create-umbrella-note"], concurrency: 3 });
    expect(result.failed).toBe(0);
    expect(result.cases[0]).toMatchObject({
      case: "create-umbrella-note",
      passed: 3,
      failed: 0,
      passRate: 1,
      passHatK: 1,
      k: 3,
      verdict: "pass",
      toolCalls: 3,
    });
    const sessions = new Set(result.lines.map((line) => line.session?.id));
    expect(sessions.size).toBe(3);
    for (const line of result.lines) {
      expect(line.session?.record).toHaveLength(1);
      expect(line.session?.record[0]).toMatchObject({ server: "crm", tool: "create-note", commit: 1 });
    }
  }, 60_000);

  it("keeps the record of a trial whose host threw after its calls: not run, with the calls it made", async () => {
    const { file } = writeEvals(CASES);
    const script = scriptHost();
    const host = {
      label: "throws-after",
      run: async (trial: Parameters<typeof script.run>[0]) => (await script.run(trial), Promise.reject(new RangeError("Maximum call stack size exceeded"))),
    };
    const result = await runEvals({ evals: file, cases: ["create-umbrella-note"], host });
    expect(result.lines.map((line) => line.status)).toEqual(["not_run", "not_run", "not_run"]);
    expect(result.lines[0].reason).toBe("Maximum call stack size exceeded");
    for (const line of result.lines) expect(line.session?.record.map((entry) => (entry as { tool: string }).tool)).toEqual(["create-note"]);
  }, 60_000);

  it("fails a case whose script does not meet its expectations, with the judge's evidence, and exits 1", async () => {
    const { file } = writeEvals(CASES);
    const result = await runEvals({ evals: file, filterTags: ["broken"] });
    expect(result.cases.map((c) => c.case)).toEqual(["expects-a-deal-won"]);
    expect(result).toMatchObject({ failed: 1, verdict: "fail", exitCode: 1 });
    expect(result.cases[0].failures.join("\n")).toContain("update-record");
    const cli = await runCli(["eval", file, "--dry", "--case", "expects-a-deal-won"]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain("FAIL");
  }, 60_000);

  it("resumes from the results file: a second run skips the trials already judged", async () => {
    const { file, dir } = writeEvals(CASES);
    const out = join(dir, "results", "run.ndjson");
    const first = await runEvals({ evals: file, out });
    expect(readResults(out)).toHaveLength(4);
    const second = await runEvals({ evals: file, out });
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(4);
    expect(second.notes.join("\n")).toContain("resumed: 4 trials");
    expect(second.trials).toEqual(first.trials);
    expect(second.cases.map((c) => c.verdict)).toEqual(["pass", "fail"]);
  }, 60_000);

  it("renders a results file as text, markdown, junit and json with eval-simulate report", async () => {
    const { file, dir } = writeEvals(CASES);
    const out = join(dir, "run.ndjson");
    await runEvals({ evals: file, out });
    const text = await runCli(["report", out]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("FAIL: 2 cases (1 passed, 1 failed)");
    const markdown = await runCli(["report", out, "--format", "markdown"]);
    expect(markdown.stdout).toContain("| create-umbrella-note | script | PASS | 3/3 passed |");
    const junit = await runCli(["report", out, "--format", "junit"]);
    expect(junit.stdout).toContain('<testsuites name="eval-simulate" tests="4" failures="1" skipped="0"');
    expect(junit.stdout).toContain("<failure");
    const json = JSON.parse((await runCli(["report", out, "--format", "json"])).stdout) as { cases: Array<{ case: string; passHatK: number }> };
    expect(json.cases.find((c) => c.case === "create-umbrella-note")?.passHatK).toBe(1);
  }, 60_000);

  it("refuses a bad flag and an evals file with errors with exit 2", async () => {
    expect((await runCli(["eval", "examples/crm/evals.yaml", "--concurrency", "0"])).code).toBe(2);
    const { file } = writeEvals("  - id: x\n    expect: { calls: [{ tool: no-such-tool }] }\n");
    const bad = await runCli(["eval", file, "--dry"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("no-such-tool");
    // --selection is the deprecated name of `select`: it says so, once, and hands over.
    const selection = await runCli(["eval", `${ROOT}examples/crm/evals.yaml`, "--selection"]);
    expect(selection.stderr).toContain("eval-simulate eval: --selection is deprecated; use eval-simulate select <evals.yaml>\n");
  }, 60_000);
});
