import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { runDirOptions } from "../../engine/serve/host/run-dir.js";
import { writeFileSync } from "node:fs";
import { type EvalCase, isEvalsFile, judgeRun, readRun, type Run } from "../../engine/entries/judge.js";
import { worldDependencies } from "../../engine/judge/evals/world-dependencies.js";
import { ROOT } from "../support/examples.js";
import { CLOCK, connect, serve } from "../support/services.js";

const GITHUB = join(ROOT, "examples/github/fakes.yaml");
const CRM = join(ROOT, "examples/crm/fakes.yaml");

/** A run of the github example: two API requests and a tracker call, recorded in-process to a run folder. */
async function githubRun(title: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "judge-api-"));
  const services = await serve(GITHUB, runDirOptions(dir));
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${services.baseUrl("github")}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await post("/repos/acme/widgets/issues", { title, body: "Saving a filter with 20 conditions times out." })).status).toBe(201);
    expect((await fetch(`${services.baseUrl("github")}/repos/acme/widgets/issues/99`)).status).toBe(404);
    const tracker = await connect(services.url("tracker"));
    await tracker.callTool({ name: "link-ticket", arguments: { key: "SUP-102", issue_url: "https://github.com/acme/widgets/issues/4" } });
    await tracker.close();
  } finally {
    await services.close();
  }
  return dir;
}

describe("judging API calls and in-process limits", { timeout: 120_000 }, () => {
  it("matches API calls by operation and request, and replays a golden path through an API fake", async () => {
    const fakes = await loadFakes(GITHUB, { clock: CLOCK });
    const c: EvalCase = {
      id: "file-issue",
      clock: CLOCK,
      expect: {
        calls: [
          { tool: "github/issues/create", arguments: { params: { owner: "acme", repo: "widgets" }, body: { title: { $pattern: "filter", $flags: "i" } } } },
          { tool: "tracker/link-ticket", arguments: { key: "SUP-102" } },
        ],
        order: "strict",
        state: {
          changed: ["github.issues", "tracker.tickets"],
          only: true,
          diff: { "github.issues": { added: [{ number: 4, title: { $pattern: "filter", $flags: "i" } }], removed: [], updated: [] } },
        },
        golden: {
          calls: [
            {
              tool: "github/issues/create",
              arguments: {
                params: { owner: "acme", repo: "widgets" },
                body: { title: "Saving a filter times out", body: "Saving a filter with 20 conditions times out." },
              },
            },
            { tool: "tracker/link-ticket", arguments: { key: "SUP-102", issue_url: "https://github.com/acme/widgets/issues/4" } },
          ],
        },
      },
    };
    const passing = await judgeRun({ fakes, case: c, run: readRun(await githubRun("Saving a filter times out")) });
    expect(passing.results.filter((r) => !r.passed)).toEqual([]);
    const run = readRun(await githubRun("Filter saving is slow"));
    expect((run.calls[0] as { changes?: { issues?: { key: string; added: unknown[] } } }).changes?.issues).toMatchObject({
      key: "id",
      added: [{ number: 4, title: "Filter saving is slow" }],
    });
    expect(run.calls[1]).not.toHaveProperty("changes");
    const failing = await judgeRun({ fakes, case: c, run });
    expect(failing.results.find((r) => r.kind === "golden")?.message).toMatch(
      /^the final world differs from the golden world: github\.issues: record 5004: title is "Filter saving is slow" in the run, "Saving a filter times out" in the golden world$/,
    );
    expect(failing.results.filter((r) => r.status === "failed").map((r) => r.kind)).toEqual(["golden"]);
  });

  it("ends a runaway assertion at its limit instead of hanging the judge", async () => {
    const fakes = await loadFakes(CRM, { clock: CLOCK });
    const services = await serve(CRM);
    const run: Run = { initial: services.initial, final: services.states, calls: [] };
    await services.close();
    const c: EvalCase = {
      id: "runaway",
      expect: {
        state: {
          assert: [
            { name: "a huge range", jsonata: "$count([1..100000000]) > 0" },
            { name: "endless recursion", jsonata: "($f := function($n) { $f($n + 1) }; $f(0))" },
          ],
        },
      },
    };
    const verdict = await judgeRun({ fakes, case: c, run });
    expect(verdict.results.map((r) => r.message)).toEqual([
      "the expression failed: The size of the sequence allocated by the range operator (..) must not exceed 1e7.  Attempted to allocate 100000000.",
      expect.stringMatching(/^the expression failed: it (ran past its 5 s limit|nested deeper than 500 levels)$/),
    ]);
    expect(verdict.verdict).toBe("fail");
  });

  it("applies commits in the order they happened when two record lines were written out of order", async () => {
    const fakes = await loadFakes(CRM, { clock: CLOCK });
    const services = await serve(CRM);
    const initial = structuredClone(services.initial);
    await services.close();
    const tasks = initial.crm.tasks as Array<{ id: string; is_completed: boolean; content: string }>;
    const after1 = tasks.map((t, i) => (i === 0 ? { ...t, content: "first" } : t));
    const after2 = after1.map((t, i) => (i === 0 ? { ...t, content: "second" } : t));
    const line = (commit: number, content: string) => ({
      server: "crm",
      tool: "complete-task",
      args: {},
      result: { content: [] },
      commit,
      changes: { tasks: { key: "id", updated: [{ ...tasks[0], content }] } },
    });
    const run: Run = { initial, final: { ...initial, crm: { ...initial.crm, tasks: after2 } }, calls: [line(2, "second"), line(1, "first")] };
    const c: EvalCase = {
      id: "order",
      expect: {
        milestones: [
          { name: "first", jsonata: `$world.crm.tasks[0].content = "first"` },
          { name: "second", jsonata: `$world.crm.tasks[0].content = "second"` },
        ],
      },
    };
    const verdict = await judgeRun({ fakes, case: c, run });
    expect(verdict.results.map((r) => r.message)).toEqual([
      "reached at commit #1 (call #2 crm/complete-task)",
      "reached at commit #2 (call #1 crm/complete-task)",
    ]);
  });

  it("skips a predicate only at commits that touch nothing it plainly reads", () => {
    const deps = (source: string) => {
      const found = worldDependencies(source);
      return found && [...found].sort();
    };
    expect(deps("$world.crm.deals[stage = 'won']")).toEqual(["crm.deals"]);
    expect(deps("$map($world.crm.deals, function($d) { $d.stage }) ~> $count")).toEqual(["crm.deals"]);
    expect(deps("$world.crm.deals[stage = $world.crm.tasks[0].x]")).toEqual(["crm.deals", "crm.tasks"]);
    expect(deps("$count($world.crm) > 0")).toEqual(["crm"]);
    // Anything less plain is evaluated at every commit.
    for (const source of ["crm.deals", "$keys($world)", "$call.tool = 'x'", "$.crm", "$random() > 0.5", "($world := $initial; $world.crm.deals)"])
      expect(deps(source)).toBeUndefined();
  });

  it("tells an evals file from a fakes manifest by its name or its content", () => {
    const dir = mkdtempSync(join(tmpdir(), "evals-detect-"));
    writeFileSync(join(dir, "cases.yaml"), "version: 1\nfakes: fakes.yaml\ncases:\n  - { id: a, expect: {} }\n");
    expect(isEvalsFile(join(dir, "cases.yaml"))).toBe(true);
    expect(isEvalsFile(join(ROOT, "examples/crm/evals.yaml"))).toBe(true);
    expect(isEvalsFile(join(ROOT, "test/fixtures/evals/error-names.evals.yaml"))).toBe(true);
    expect(isEvalsFile(CRM)).toBe(false);
  });
});
