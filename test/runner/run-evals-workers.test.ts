import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { trialKey } from "../../engine/eval/results/results-file.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";
import { ROOT } from "../support/examples.js";
import { type ScriptedProvider, type ScriptedReply, startScriptedProvider } from "../support/scripted-provider.js";

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

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
    iterations: 2
    accuracyThreshold: 1
    host: { type: script }
    script:
      calls:
        - { tool: crm/list-tasks, arguments: {} }
      answer: Done.
    expect:
      calls: [{ tool: crm/update-record, arguments: { values: { stage: won } } }]
`;

/** An agent command that kills the process that started it (its worker) when its case says so. */
const killer = JSON.stringify(`if (process.argv[1] === "kills-its-worker") process.kill(process.ppid, "SIGKILL"); else console.log("done");`);
const DYING = `
  - id: kills-its-worker
    host: { type: command, command: [${JSON.stringify(process.execPath)}, "-e", ${killer}, "{{case}}"] }
    expect: { answer: { contains: done } }
  - id: survives
    iterations: 4
    accuracyThreshold: 1
    host: { type: command, command: [${JSON.stringify(process.execPath)}, "-e", ${killer}, "{{case}}"] }
    expect: { answer: { contains: done } }
`;

const statuses = (lines: ReadonlyArray<{ case: string; iteration: number; model: string; status: string }>) =>
  Object.fromEntries(lines.map((l) => [trialKey(l), l.status]).sort());

describe("eval --workers N", () => {
  it("gives the same verdicts in two worker processes as in one process, the parent alone writing the results file", async () => {
    const { file, dir } = writeEvals(CASES);
    const alone = await runEvals({ evals: file, concurrency: 3 });
    const out = join(dir, "workers.ndjson");
    const workers = await runEvals({ evals: file, concurrency: 3, workers: 2, out });
    expect(statuses(workers.lines)).toEqual(statuses(alone.lines));
    expect(workers.cases.map((c) => [c.case, c.verdict, c.passed, c.failed])).toEqual(alone.cases.map((c) => [c.case, c.verdict, c.passed, c.failed]));
    expect(workers).toMatchObject({ verdict: "fail", exitCode: 1, trials: alone.trials });
    // Each trial's world was its own in whichever worker ran it: one note each.
    for (const line of workers.lines.filter((l) => l.case === "create-umbrella-note")) expect(line.session?.record).toHaveLength(1);
    const written = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text) as { case: string; iteration: number; model: string });
    expect(written.map(trialKey).sort()).toEqual(workers.lines.map(trialKey).sort());
    expect(new Set(written.map(trialKey)).size).toBe(5);
  }, 120_000);

  it("judges golden in two worker processes as in one, sharing replays through a folder it removes after the run", async () => {
    const note = (title: string) =>
      JSON.stringify([
        {
          tool: "crm/create-note",
          arguments: { parent_object: "companies", parent_record_id: "0080618c-1fdc-54e1-9e26-73c948373f91", title, content: "Booked." },
        },
      ]);
    const golden = (id: string, title: string) => `
  - id: ${id}
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    iterations: 4
    accuracyThreshold: 1
    host: { type: script }
    script:
      calls: ${note("Kick-off")}
      answer: Noted.
    expect:
      golden: ${note(title)}
`;
    const { file } = writeEvals(golden("same-note", "Kick-off") + golden("other-note", "Wrap-up"));
    const alone = await runEvals({ evals: file, concurrency: 2 });
    const scratch = mkdtempSync(join(tmpdir(), "workers-golden-"));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      const workers = await runEvals({ evals: file, concurrency: 2, workers: 2 });
      expect(statuses(workers.lines)).toEqual(statuses(alone.lines));
      expect(Object.values(statuses(workers.lines)).sort()).toEqual([...Array(4).fill("fail"), ...Array(4).fill("pass")]);
      const message = (lines: typeof alone.lines) =>
        lines.map((l) => (l.assertions as Array<{ kind: string; message: string }>).find((a) => a.kind === "golden")?.message).sort();
      expect(message(workers.lines)).toEqual(message(alone.lines));
      // The run's golden folder is gone with its workers.
      expect(readdirSync(scratch).filter((name) => name.startsWith("eval-simulate-golden-"))).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 180_000);

  it("marks the trials of a worker that dies not run and the run PRELIMINARY, and the other worker runs the rest", async () => {
    const { file } = writeEvals(DYING);
    const warnings: string[] = [];
    const result = await runEvals({ evals: file, concurrency: 2, workers: 2, warn: (message) => warnings.push(message) });
    expect(result.lines).toHaveLength(5);
    const killed = result.lines.find((l) => l.case === "kills-its-worker")!;
    expect(killed).toMatchObject({ status: "not_run" });
    expect(killed.reason).toMatch(/^the worker process \d+ died \(SIGKILL\) during the trial$/);
    // Only a trial the dead worker held with it can be lost beside its own.
    const lost = result.lines.filter((l) => l.status === "not_run");
    expect(lost.length).toBeLessThanOrEqual(2);
    for (const line of lost) expect(line.reason).toMatch(/worker process \d+ died/);
    expect(result.lines.filter((l) => l.case === "survives" && l.status === "pass").length).toBeGreaterThanOrEqual(3);
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2 });
    expect(warnings.join("\n")).toMatch(/the worker process \d+ died \(SIGKILL\); its trials are not run/);
  }, 120_000);

  it("stops with every trial not run, never hanging, when each worker dies", async () => {
    const { file } = writeEvals(
      DYING.replace("id: survives", "id: kills-its-worker-too")
        .replace(/iterations: 4/, "iterations: 1")
        .replaceAll('"{{case}}"', '"kills-its-worker"'),
    );
    const result = await runEvals({ evals: file, concurrency: 1, workers: 2, warn: () => undefined });
    expect(result.lines.every((l) => l.status === "not_run")).toBe(true);
    expect(result.lines).toHaveLength(2);
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2 });
  }, 120_000);

  it("keeps one budget across the workers: their spend is counted together and stops them all", async () => {
    // gpt-4.1 at $2 per million input tokens: each request costs $0.10, each trial $0.20. Two
    // budgets of $0.50 (one per worker) would let $0.80 be spent.
    const createNote = {
      name: "create-note",
      arguments: { parent_object: "companies", parent_record_id: "0080618c-1fdc-54e1-9e26-73c948373f91", title: "Kick-off", content: "Booked." },
    };
    provider = await startScriptedProvider(
      (request): ScriptedReply =>
        request.toolResults.length === 0
          ? { toolCalls: [createNote], usage: { input: 50_000, output: 0 } }
          : { text: "noted", usage: { input: 50_000, output: 0 } },
    );
    const { file } = writeEvals(`
  - id: note-on-umbrella
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Log a kick-off note on Umbrella Health.
    iterations: 10
    accuracyThreshold: 1
    maxSteps: 4
    host: { type: model, model: "openai:gpt-4.1", baseURL: "${provider.baseURL}" }
    expect:
      calls: [{ tool: crm/create-note }]
`);
    const result = await runEvals({ evals: file, concurrency: 2, workers: 2, budgetUsd: 0.5, env: { ...process.env, OPENAI_API_KEY: "sk-test" } });
    expect(result.stopped).toMatch(/budget of \$0.5 was reached/);
    expect(result.costUsd).toBeCloseTo(provider.requests.length * 0.1);
    // Requests already in flight when the limit is reached may end past it (one per trial running), as in one process.
    expect(result.costUsd).toBeLessThanOrEqual(0.5 + 2 * 0.1 + 1e-9);
    expect(result.lines.reduce((n, l) => n + l.costUsd, 0)).toBeCloseTo(result.costUsd);
    expect(result.trials.notRun).toBeGreaterThanOrEqual(7);
    expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2 });
  }, 120_000);

  it("runs examples/crm in worker processes from the command line, with one summary", async () => {
    const { code, stdout } = await runCli(["eval", `${ROOT}examples/crm/evals.yaml`, "--dry", "--workers", "2"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/trials: 8 \(8 passed/);
    expect((await runCli(["eval", `${ROOT}examples/crm/evals.yaml`, "--dry", "--workers", "0"])).code).toBe(2);
  }, 120_000);
});
