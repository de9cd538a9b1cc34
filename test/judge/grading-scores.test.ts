import { describe, expect, it } from "vitest";
import { checkEvals } from "../../engine/judge/evals/load-evals.js";
import { scoreOf, verdictOf } from "../../engine/judge/evals/score.js";
import type { AssertionResult } from "../../engine/judge/evals/types.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import type { TrialLine } from "../../engine/eval/results/results-file.js";
import { writeEvals } from "../support/evals-files.js";

const DEAL = "3037a4ba-abda-5430-9236-62b732998586";
const TASK = "c2459127-e39c-5225-a039-6818ce44c72f";
const win = { tool: "crm/update-record", arguments: { object: "deals", record_id: DEAL, values: { stage: "won" } } };
const complete = { tool: "crm/complete-task", arguments: { task_id: TASK } };
const WON = { name: "deal won", jsonata: "$world.crm.deals[name = 'Acme Corp — platform renewal'].stage = 'won'" };
const DONE = { name: "task done", jsonata: "$world.crm.tasks[content = 'Send Acme the revised order form'].is_completed = true" };
const NOTED = { name: "note logged", jsonata: "$count($world.crm.notes) > $count($initial.crm.notes)" };

/** A case (one YAML list item, written as JSON) that plays `calls` on the quiet world and expects `expect`. */
const withScript = (id: string, calls: unknown[], expect: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `  - ${JSON.stringify({ id, scenario: "quiet", clock: "2026-10-01T09:00:00.000Z", host: { type: "script" }, script: { calls, answer: "Done." }, ...extra, expect })}\n`;

async function run(cases: string): Promise<Map<string, TrialLine>> {
  const { file } = writeEvals(cases);
  const result = await runEvals({ evals: file, concurrency: 2 });
  return new Map(result.lines.map((line) => [line.case, line]));
}
const milestone = (line: TrialLine, name: string) => (line.assertions as AssertionResult[]).find((r) => r.kind === "milestone" && r.assertion.endsWith(name))!;

describe("weights, scores and minScore", () => {
  it("scores a trial by the weighted share of assertions passed, leaving out (and counting) those not evaluated", () => {
    const r = (status: AssertionResult["status"], weight?: number, kind = "calls"): AssertionResult => ({
      assertion: `${kind} x`,
      kind,
      passed: status === "passed",
      status,
      message: "",
      ...(weight === undefined ? {} : { weight }),
    });
    expect(scoreOf([r("passed", 3), r("failed")])).toEqual({ score: 0.75, passed: 3, of: 4, notEvaluated: 0 });
    expect(scoreOf([r("passed"), r("not_evaluated", 5), r("failed", 0)])).toEqual({ score: 1, passed: 1, of: 1, notEvaluated: 1 });
    // Preconditions (the run's starting world) say whether the run is the case's, and are not scored.
    expect(scoreOf([r("passed", 1, "run")])).toEqual({ passed: 0, of: 0, notEvaluated: 0 });
    // minScore: a pass only when the unevaluated weight cannot pull it under, a fail only when it cannot lift it over.
    expect(verdictOf([r("passed", 3), r("failed")], { minScore: 0.7 })).toBe("pass");
    expect(verdictOf([r("passed", 3), r("failed")], { minScore: 0.8 })).toBe("fail");
    expect(verdictOf([r("passed", 3), r("failed"), r("not_evaluated")], { minScore: 0.6 })).toBe("pass");
    expect(verdictOf([r("passed", 3), r("failed"), r("not_evaluated")], { minScore: 0.7 })).toBe("not_evaluated");
    expect(verdictOf([r("passed"), r("failed", 3), r("not_evaluated")], { minScore: 0.6 })).toBe("fail");
    expect(verdictOf([r("passed", 3), r("failed")])).toBe("fail");
  });

  it("stores the score on each trial's line, weights from every kind of assertion, and passes a case by minScore", async () => {
    const expect_ = {
      calls: [{ tool: "crm/update-record", weight: 2 }, { tool: "crm/create-note" }],
      exclusive: true,
      weights: { exclusive: 0.5, changed: 3 },
      state: {
        changed: ["crm.deals"],
        assert: [{ name: "a deal is won", jsonata: "$count($final.crm.deals[stage = 'won']) > $count($initial.crm.deals[stage = 'won'])", weight: 4 }],
      },
      answer: { contains: "Nope", weight: 0 },
    };
    const lines = await run(
      withScript("weighed", [win], expect_) +
        withScript("by-score", [win], expect_, { minScore: 0.8 }) +
        withScript("short-of-it", [win], expect_, { minScore: 0.95 }),
    );
    const weighed = lines.get("weighed")!;
    // update-record (2), exclusive (0.5), changed (3) and the assert (4) pass; create-note (1) fails; the answer weighs 0.
    expect(weighed).toMatchObject({ status: "fail", score: 9.5 / 10.5, scoring: { passed: 9.5, of: 10.5, notEvaluated: 0 } });
    expect((weighed.assertions as AssertionResult[]).map((a) => `${a.assertion.split(" ")[0]} ${a.weight ?? 1}`)).toEqual([
      "run: 1",
      "calls[0] 2",
      "calls[1] 1",
      "exclusive 0.5",
      "state.changed 3",
      "state.assert[0] 4",
      "answer.contains 0",
    ]);
    expect(lines.get("by-score")).toMatchObject({ status: "pass", minScore: 0.8, score: 9.5 / 10.5 });
    expect(lines.get("short-of-it")).toMatchObject({ status: "fail", minScore: 0.95 });
  }, 60_000);

  it("zeroes the score when a minefield is stepped on, unless the minefield says zeroScore: false", async () => {
    const never = (zeroScore?: boolean) => [
      {
        name: "the Acme deal is never won",
        jsonata: "$world.crm.deals[name = 'Acme Corp — platform renewal'].stage = 'won'",
        ...(zeroScore === undefined ? {} : { zeroScore }),
      },
    ];
    const lines = await run(
      withScript("mined", [win, complete], { milestones: [WON, DONE], never: never() }, { minScore: 0.5 }) +
        withScript("counted", [win, complete], { milestones: [WON, DONE], never: never(false) }, { minScore: 0.5 }),
    );
    expect(lines.get("mined")).toMatchObject({ status: "fail", score: 0, scoring: { zeroedBy: "never[0] the Acme deal is never won", passed: 2, of: 3 } });
    expect(lines.get("counted")).toMatchObject({ status: "pass", score: 2 / 3 });
  }, 60_000);
});

describe("milestones in order, in any order, or as a graph", () => {
  // The same two milestones and two commit orders: "won, then done" and "done, then won".
  const listed = { milestones: [WON, DONE, NOTED] };
  const anyOrder = { milestones: { order: "any", list: [WON, DONE, NOTED] } };
  // The graph says the deal is won after the task is done: the reverse of the list.
  const graph = { milestones: [{ ...WON, after: ["task done"] }, DONE, NOTED] };

  it("passes a commit order that satisfies the graph but not the list, and the reverse; any order takes both; partial credit in the score", async () => {
    const lines = await run(
      withScript("list-won-first", [win, complete], listed) +
        withScript("list-done-first", [complete, win], listed) +
        withScript("any-won-first", [win, complete], anyOrder) +
        withScript("any-done-first", [complete, win], anyOrder) +
        withScript("graph-won-first", [win, complete], graph) +
        withScript("graph-done-first", [complete, win], graph),
    );
    const passedNames = (id: string) =>
      (lines.get(id)!.assertions as AssertionResult[]).filter((r) => r.kind === "milestone" && r.status === "passed").map((r) => r.assertion);
    expect(passedNames("list-won-first")).toEqual(["milestones[0] deal won", "milestones[1] task done"]);
    expect(passedNames("list-done-first")).toEqual(["milestones[0] deal won"]);
    expect(milestone(lines.get("list-done-first")!, "task done").message).toBe(
      'became true at commit #1 (call #1 crm/complete-task), before "deal won" (commit #2 (call #2 crm/update-record)); the milestones must happen in the listed order',
    );
    expect(passedNames("any-won-first")).toHaveLength(2);
    expect(passedNames("any-done-first")).toHaveLength(2);
    expect(passedNames("graph-done-first")).toEqual(["milestones[0] deal won", "milestones[1] task done"]);
    expect(passedNames("graph-won-first")).toEqual(["milestones[1] task done"]);
    expect(milestone(lines.get("graph-won-first")!, "deal won").message).toBe(
      'became true at commit #1 (call #1 crm/update-record), before "task done" (commit #2 (call #2 crm/complete-task)); it comes after "task done"',
    );
    // The note is never logged: two of three milestones reached is two thirds of the score.
    expect(lines.get("any-won-first")).toMatchObject({ status: "fail", score: 2 / 3 });
    expect(lines.get("list-done-first")).toMatchObject({ score: 1 / 3 });
  }, 90_000);

  it("orders a graph through milestones that were never reached", async () => {
    // c after b after a; b is never reached, and c (reached first) still comes after a.
    const chain = {
      milestones: {
        order: "any",
        list: [
          { ...DONE, name: "a" },
          { ...NOTED, name: "b", after: ["a"] },
          { ...WON, name: "c", after: ["b"] },
        ],
      },
    };
    const lines = await run(withScript("chain", [win, complete], chain));
    expect(milestone(lines.get("chain")!, "c").message).toMatch(/before "a" \(commit #2 .*\); it comes after "a"$/);
  }, 60_000);

  it("refuses at validate an `after` naming no milestone, one naming itself, a circle, and `after` in a listed order", async () => {
    const cases =
      withScript("unknown", [win], { milestones: [{ ...WON, after: ["task dne"] }, DONE] }) +
      withScript("itself", [win], { milestones: [{ ...WON, after: ["deal won"] }] }) +
      withScript("circle", [win], {
        milestones: [
          { ...WON, after: ["task done"] },
          { ...DONE, after: ["deal won"] },
        ],
      }) +
      withScript("listed", [win], { milestones: { order: "listed", list: [{ ...WON, after: ["task done"] }, DONE] } }) +
      withScript("twice", [win], {
        rubrics: [
          { name: "r", rubric: "x" },
          { name: "r", rubric: "y" },
        ],
      });
    const { file } = writeEvals(cases);
    const checked = await checkEvals(file);
    expect(checked.diagnostics.map((d) => `${d.path}: ${d.message}`)).toEqual([
      'cases[0].expect.milestones[0].after[0]: no milestone is named "task dne". Did you mean "task done"?',
      'cases[1].expect.milestones[0].after[0]: milestone "deal won" comes after itself',
      'cases[2].expect.milestones: the milestones come after each other in a circle: "deal won" → "task done" → "deal won"',
      "cases[3].expect.milestones.order: `after` orders milestones as a graph, which a listed order would override",
      'cases[4].expect.rubrics[1].name: two rubrics are named "r"',
    ]);
  }, 60_000);
});
