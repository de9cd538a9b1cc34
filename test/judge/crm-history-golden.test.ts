import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { LoadedFakes } from "../../engine/author/fakes/load-fakes.js";
import { type EvalCase, type EvalsDocument, judgeRun, loadEvals, readRun, rebuildHistory, type Verdict } from "../../engine/entries/judge.js";
import { judgedCalls, fakeMaps } from "../../engine/judge/evals/fake-maps.js";
import { rubricJudge } from "../../engine/entries/runner.js";
import { labelId } from "../../engine/author/world/index.js";
import { ROOT } from "../support/examples.js";
import { recordRun, type ScriptedCall } from "../support/recorded-run.js";

const MANIFEST = join(ROOT, "examples/crm/fakes.yaml");
const DEAL = labelId("deal-acme");
const TASK = labelId("task-acme-order-form");
const ACME = labelId("company-acme");
const stage = (value: string): ScriptedCall => ({ tool: "crm/update-record", args: { object: "deals", record_id: DEAL, values: { stage: value } } });
const complete: ScriptedCall = { tool: "crm/complete-task", args: { task_id: TASK } };
const industry = (value: string): ScriptedCall => ({ tool: "crm/update-record", args: { object: "companies", record_id: ACME, values: { industry: value } } });

let evals: EvalsDocument;
let fakes: LoadedFakes;
const caseOf = (id: string) => evals.cases!.find((c) => c.id === id)!;
// Rubrics are judged from the example's committed judgments, offline.
const rubrics = () => rubricJudge({ evalsFile: join(ROOT, "examples/crm/evals.yaml"), judgeModel: evals.judgeModel, offline: true });
const judge = (c: EvalCase, dir: string): Promise<Verdict> => judgeRun({ fakes, case: c, run: readRun(dir), rubrics: rubrics() });
const result = (verdict: Verdict, assertion: string) => verdict.results.find((r) => r.assertion.startsWith(assertion));

// Every test records a run with a real serve process: slow on a busy machine, never stuck.
describe("judging the crm example's runs (golden replay, milestones, never, the commit history)", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    ({ evals, fakes } = await loadEvals(join(ROOT, "examples/crm/evals.yaml")));
  });

  it("passes the scripted run of every case, recorded by a real serve", async () => {
    for (const c of evals.cases!) {
      const { dir } = await recordRun(
        MANIFEST,
        c.script!.calls.map((call) => ({ tool: call.tool, args: call.arguments })),
        { scenario: c.scenario, clock: c.clock, answer: c.script!.answer },
      );
      const verdict = await judge(c, dir);
      expect(verdict.results.filter((r) => !r.passed)).toEqual([]);
      expect(verdict.verdict).toBe("pass");
    }
    expect(
      result(await judge(caseOf("close-acme-renewal"), (await recordRun(MANIFEST, [stage("won"), complete], { answer: "Won." })).dir), "golden")?.message,
    ).toBe("the final world equals the golden world (4 entities compared by hash, 2 golden calls)");
  });

  it("sees a change undone within the run: unchanged still passes, never catches it, the history shows both commits", async () => {
    const { dir } = await recordRun(MANIFEST, [stage("won"), industry("retail"), complete, industry("manufacturing")], { answer: "Won." });
    const verdict = await judge(caseOf("close-acme-renewal"), dir);
    expect(result(verdict, "state.unchanged crm.companies")).toMatchObject({
      passed: true,
      message:
        "crm.companies is unchanged at the end (changed and changed back within the run: commit #2 (call #2 crm/update-record), commit #4 (call #4 crm/update-record); forbid that with `never`)",
    });
    expect(result(verdict, "never[1]")).toMatchObject({
      passed: false,
      message:
        "broken at commit #2 (call #2 crm/update-record); it was undone at commit #4 (call #4 crm/update-record), so the final state alone does not show it",
    });
    // The golden world compares the end only: equal, as the final state is.
    expect(result(verdict, "golden")?.passed).toBe(true);
    const run = readRun(dir);
    const history = rebuildHistory(run.initial, run.final, judgedCalls(run.calls, fakeMaps(fakes).maps));
    if (!history.ok) throw new Error(history.reason);
    const acme = (n: number) => (history.commits[n].world.crm.companies as Array<{ id: string; industry: string }>).find((c) => c.id === ACME)!.industry;
    expect(history.commits.map((c) => `${c.number} ${c.fake}/${c.call.tool} ${c.entities.join(",")}`)).toEqual([
      "1 crm/update-record deals",
      "2 crm/update-record companies",
      "3 crm/complete-task tasks",
      "4 crm/update-record companies",
    ]);
    expect([acme(0), acme(1), acme(2), acme(3)]).toEqual(["manufacturing", "retail", "retail", "manufacturing"]);
    expect(verdict.verdict).toBe("fail");
  });

  it("fails a golden world that differs, naming the record and field", async () => {
    const { dir } = await recordRun(MANIFEST, [stage("lost"), complete], { answer: "Won." });
    const verdict = await judge(caseOf("close-acme-renewal"), dir);
    expect(result(verdict, "golden")?.message).toBe(
      `the final world differs from the golden world: crm.deals: record "${DEAL}": stage is "lost" in the run, "won" in the golden world`,
    );
    expect((result(verdict, "golden")?.evidence as { hashes: Record<string, unknown> }).hashes).toHaveProperty(["crm.deals"]);
    expect(result(verdict, "milestones[0]")?.message).toBe("never became true (2 commits in the run)");
    expect(result(verdict, "state.assert[0]")?.message).toBe("false (the expression gave false)");
  });

  it("does not evaluate a case whose golden call fails where the reference recorded it succeeding, never passing it", async () => {
    const c = caseOf("close-acme-renewal");
    const broken: EvalCase = {
      ...c,
      expect: { golden: { calls: [{ tool: "crm/complete-task", arguments: { task_id: labelId("no-such-task") }, result: { ok: true } }] } },
    };
    const { dir } = await recordRun(MANIFEST, [stage("won"), complete]);
    const verdict = await judge(broken, dir);
    expect(result(verdict, "golden")).toMatchObject({
      status: "not_evaluated",
      message: `the golden path cannot be replayed: golden call #1 crm/complete-task failed where the reference's call succeeded: No task has the ID ${labelId("no-such-task")}.`,
    });
    expect(verdict.verdict).toBe("not_evaluated");
  });

  it("fails milestones that happen out of order", async () => {
    const { dir } = await recordRun(MANIFEST, [complete, stage("won")], { answer: "Won." });
    const verdict = await judge(caseOf("close-acme-renewal"), dir);
    expect(result(verdict, "milestones[0]")?.passed).toBe(true);
    expect(result(verdict, "milestones[1]")?.message).toBe(
      'became true at commit #1 (call #1 crm/complete-task), before "the Acme renewal is won" (commit #2 (call #2 crm/update-record)); the milestones must happen in the listed order',
    );
  });

  it("catches collateral damage with only, and fails readOnly on a write", async () => {
    const { dir } = await recordRun(MANIFEST, [stage("won"), complete, industry("retail")], { answer: "48,000 and won." });
    expect(result(await judge(caseOf("close-acme-renewal"), dir), "state.only")?.message).toBe(
      "collateral damage: crm.companies (commit #3 (call #3 crm/update-record)) changed outside crm.deals, crm.tasks",
    );
    const readOnly = await judge(caseOf("pipeline-value"), dir);
    expect(result(readOnly, "state.readOnly")?.passed).toBe(false);
    expect(result(readOnly, "calls[0]")?.message).toBe(
      'expected a call to crm/search-records with object = "deals"; none was made (calls: #1 crm/update-record, #2 crm/complete-task, #3 crm/update-record)',
    );
    expect(result(readOnly, "answer.jsonata")?.passed).toBe(true);
  });

  it("does not judge a run served from another scenario than the case's", async () => {
    const { dir } = await recordRun(MANIFEST, [stage("won"), complete], { scenario: "pipeline-review", answer: "Won." });
    const verdict = await judge(caseOf("close-acme-renewal"), dir);
    expect(result(verdict, "run: starting world")?.status).toBe("not_evaluated");
    expect(result(verdict, "run: starting world")?.message).toMatch(/^the run did not start from scenario "quiet" at 2026-10-01T09:00:00.000Z: crm\.\w+/);
  });

  it("refuses to read history from a record that does not rebuild the final state", async () => {
    const { dir } = await recordRun(MANIFEST, [stage("won"), complete], { answer: "Won." });
    const record = join(dir, "record.jsonl");
    writeFileSync(record, readFileSync(record, "utf8").split("\n").slice(1).join("\n"));
    const verdict = await judge(caseOf("close-acme-renewal"), dir);
    expect(result(verdict, "milestones[0]")).toMatchObject({
      status: "not_evaluated",
      message: "the run's history cannot be rebuilt: the record's changes rebuild a world whose crm.deals differs from the final state",
    });
  });
});
