import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { judgeRun } from "../../engine/judge/evals/judge-run.js";
import { readRun } from "../../engine/judge/evals/run.js";
import { readResults } from "../../engine/eval/results/results-file.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { copyRecipe, CRM_FAKES, writeEvals } from "../support/evals-files.js";

// Conversation cases in their scripted form: `turns:` played through the conversation loop by
// the script host and the scripted user, free and offline, as `--dry` plays them.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const recipe = () => {
  const dir = copyRecipe("crm");
  dirs.push(dir);
  return dir;
};

const ACME_DEAL = "3037a4ba-abda-5430-9236-62b732998586";
const ORDER_TASK = "c2459127-e39c-5225-a039-6818ce44c72f";

/** A two-turn conversation where the user ticks off their own task before the agent writes. */
const dualCase = (expect: string, extra = "") => `
  - id: dual
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Mark the Acme renewal won once I've sent the form.
    host: { type: script }
    user: { instructions: "You are Sam.", tools: [crm/complete-task]${extra} }
    turns:
      - answer: Tell me when it's sent?
      - userCalls: [{ tool: crm/complete-task, arguments: { task_id: ${ORDER_TASK} } }]
        user: Sent — and “ticked off” ✅ 'mine'.
        calls: [{ tool: crm/update-record, arguments: { object: deals, record_id: ${ACME_DEAL}, values: { stage: won } } }]
        answer: "Marked won: «Acme» \\u2014 done \\"now\\"."
    expect:
${expect}
`;

describe("scripted conversations", () => {
  it("passes every conversation case of the crm example with --dry, each over its turns", async () => {
    const result = await runEvals({ evals: join(recipe(), "conversations.yaml"), dry: true, concurrency: 1 });
    expect(result.lines.map((line) => [line.case, line.status, line.turns])).toEqual([
      ["clarify-before-writing", "pass", 2],
      ["user-changes-mind", "pass", 2],
      ["user-closes-own-task", "pass", 2],
    ]);
    expect(result.cases.map((c) => c.turns)).toEqual([[2], [2], [2]]);
    // The script plays its user: nothing is spent on either side.
    expect(result.lines.every((line) => line.user?.model === "script" && line.user.requests === 0 && line.costUsd === 0)).toBe(true);
  });

  it("gives the same conversations in worker processes, transcripts crossing to the parent whole", async () => {
    const dir = recipe();
    const local = await runEvals({ evals: join(dir, "conversations.yaml"), dry: true, concurrency: 1 });
    const workers = await runEvals({ evals: join(dir, "conversations.yaml"), dry: true, workers: 2 });
    const view = (lines: typeof local.lines) =>
      [...lines].sort((a, b) => a.case.localeCompare(b.case)).map((line) => [line.case, line.status, line.turns, JSON.stringify(line.transcript).length]);
    expect(view(workers.lines)).toEqual(view(local.lines));
  }, 120_000);

  it("keeps the agent's last message as the answer, and fails a conversation whose agent writes too early", async () => {
    const dir = recipe();
    const file = join(dir, "conversations.yaml");
    // The scripted agent writes the note in turn 1, before it knows which company: `never` (per commit, with its turn) and the transcript check catch it.
    const text = readFileSync(file, "utf8").replace(
      "    turns:\n      - answer: Which company should the note go on?",
      "    turns:\n      - calls:\n          - { tool: crm/create-note, arguments: { parent_object: companies, parent_record_id: 0080618c-1fdc-54e1-9e26-73c948373f91, title: Kick-off, content: Kick-off call booked for 3 March. } }\n        answer: Which company should the note go on?",
    );
    writeFileSync(file, text);
    const result = await runEvals({ evals: file, dry: true, cases: ["clarify-before-writing"] });
    const line = result.lines[0];
    expect(line.status).toBe("fail");
    expect(line.answer).toBe("Added the note to Umbrella.");
    const failed = (line.assertions as Array<{ assertion: string; status: string }>).filter((a) => a.status === "failed").map((a) => a.assertion);
    expect(failed).toEqual([
      "never[0] nothing is written before the user has said which company",
      "transcript[0] the agent asks a question before its first write",
    ]);
  });

  it("attributes the user's calls to the user: call expectations and exclusive count the agent's unless told", async () => {
    const { file, dir } = writeEvals(
      dualCase(`      calls: [{ tool: crm/update-record }]
      exclusive: true
      callCount: { exact: 1 }`),
    );
    dirs.push(dir);
    const result = await runEvals({ evals: file });
    expect(result.lines[0].status).toBe("pass");
    const record = result.lines[0].session!.record as Array<{ tool: string; by: string; turn: number }>;
    expect(record.map((r) => [r.tool, r.by, r.turn])).toEqual([
      ["complete-task", "user", 2],
      ["update-record", "agent", 2],
    ]);
    // Asked of the agent, the user's call does not count; asked of the user (or anyone), it does.
    const { file: asked, dir: dir2 } = writeEvals(
      dualCase(`      calls:
        - { tool: crm/complete-task }
        - { tool: crm/complete-task, by: user }
        - { tool: crm/complete-task, by: any }`),
    );
    dirs.push(dir2);
    const judged = await runEvals({ evals: asked });
    expect(
      (judged.lines[0].assertions as Array<{ assertion: string; status: string }>).filter((a) => a.assertion.startsWith("calls")).map((a) => a.status),
    ).toEqual(["failed", "passed", "passed"]);
  });

  it("ends at maxTurns even when turns are scripted past it", async () => {
    const { file, dir } = writeEvals(dualCase("      turns: { max: 1 }", ", maxTurns: 1"));
    dirs.push(dir);
    const result = await runEvals({ evals: file });
    expect(result.lines[0]).toMatchObject({ status: "pass", turns: 1, answer: "Tell me when it's sent?" });
    expect(result.lines[0].calls).toBe(0);
  });

  it("stores the transcript byte for byte in the results file, and verify judges it from a run folder's transcript.json", async () => {
    const { file, dir } = writeEvals(
      dualCase(`      turns: { exact: 2 }
      answer: { contains: "«Acme»" }
      transcript:
        - name: the user's words reach the transcript as they were said
          jsonata: "$transcript[role = 'user' and turn = 2].content = \\"Sent — and “ticked off” ✅ 'mine'.\\""`),
    );
    dirs.push(dir);
    const out = join(dir, "results.ndjson");
    const result = await runEvals({ evals: file, out });
    const line = result.lines[0];
    expect(line.status).toBe("pass");
    const stored = readResults(out)[0];
    expect(JSON.stringify(stored.transcript)).toBe(JSON.stringify(line.transcript));
    expect(stored.transcript!.map((m) => [m.turn, m.role, m.by ?? "", m.content ?? m.name ?? ""])).toEqual([
      [1, "user", "", "Mark the Acme renewal won once I've sent the form."],
      [1, "assistant", "", "Tell me when it's sent?"],
      [2, "user", "user", ""],
      [2, "tool", "user", "crm/complete-task"],
      [2, "user", "", "Sent — and “ticked off” ✅ 'mine'."],
      [2, "assistant", "agent", ""],
      [2, "tool", "agent", "crm/update-record"],
      [2, "assistant", "", 'Marked won: «Acme» — done "now".'],
    ]);
    // Each tool message carries its commit, as the session numbered it.
    expect(stored.transcript!.filter((m) => m.role === "tool").map((m) => m.commit)).toEqual([1, 2]);

    // Any harness's run folder with that transcript.json is judged the same: turns, transcript, the last agent message as the answer.
    const run = join(dir, "run");
    mkdirSync(run);
    writeFileSync(join(run, "initial-state.json"), "{}");
    writeFileSync(join(run, "state.json"), "{}");
    writeFileSync(join(run, "transcript.json"), JSON.stringify(stored.transcript));
    const fakes = await loadFakes(CRM_FAKES);
    const c = {
      id: "dual",
      expect: {
        turns: { exact: 2 },
        answer: { contains: "«Acme»" },
        transcript: [{ name: "two tool results", jsonata: "$count($transcript[role = 'tool']) = 2 and $turns = 2" }],
      },
    };
    const verdict = await judgeRun({ fakes, case: c, run: readRun(run) });
    expect(verdict.results.map((r) => [r.assertion, r.status])).toEqual([
      ["answer.contains", "passed"],
      ["turns", "passed"],
      ["transcript[0] two tool results", "passed"],
    ]);
  });

  it("resumes a conversation run: judged conversation trials are kept, transcript and all, and not played again", async () => {
    const dir = recipe();
    const out = join(dir, "results.ndjson");
    const first = await runEvals({ evals: join(dir, "conversations.yaml"), dry: true, out, concurrency: 1 });
    const again = await runEvals({ evals: join(dir, "conversations.yaml"), dry: true, out });
    expect(again.notes).toContain(`resumed: 3 trials already in ${out}`);
    expect(readResults(out)).toHaveLength(3);
    expect(again.lines.map((line) => JSON.stringify(line.transcript))).toEqual(first.lines.map((line) => JSON.stringify(line.transcript)));
    expect(again.cases.map((c) => c.turns)).toEqual([[2], [2], [2]]);
  });
});
