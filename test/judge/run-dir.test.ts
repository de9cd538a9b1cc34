import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadEvals, judgeRun, readRun } from "../../engine/entries/judge.js";
import { labelId } from "../../engine/author/world/index.js";
import { startServe } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { recordRun } from "../support/recorded-run.js";
import { connect } from "../support/services.js";

const CRM = join(ROOT, "examples/crm/fakes.yaml");
const CLOCK = "2026-10-01T09:00:00.000Z";
const won = { tool: "crm/update-record", args: { object: "deals", record_id: labelId("deal-acme"), values: { stage: "won" } } };
const complete = { tool: "crm/complete-task", args: { task_id: labelId("task-acme-order-form") } };

describe("serve --run-dir", { timeout: 180_000 }, () => {
  it("writes the record, both states and the manifests under fixed names, one run per folder", async () => {
    const { dir } = await recordRun(CRM, [won]);
    for (const name of ["record.jsonl", "initial-state.json", "state.json", "manifests/mcp/crm/manifest.json"]) expect(existsSync(join(dir, name))).toBe(true);
    expect(readFileSync(join(dir, "record.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);
    // A new run in the same folder starts a new record.
    await recordRun(CRM, [complete, complete], { dir });
    expect(
      readFileSync(join(dir, "record.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).tool),
    ).toEqual(["complete-task", "complete-task"]);
  });

  it("takes the folder from EVAL_SIMULATE_RUN_DIR, and a resumed run continues its record: the history spans both", async () => {
    const { dir } = await recordRun(CRM, [won]);
    const serve = await startServe([CRM, "--clock", CLOCK, "--resume-state-file", join(dir, "state.json")], { EVAL_SIMULATE_RUN_DIR: dir });
    try {
      const client = await connect(`http://127.0.0.1:${serve.port}/crm/mcp`);
      await client.callTool({ name: "complete-task", arguments: complete.args });
      await client.close();
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
    const lines = readFileSync(join(dir, "record.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.tool, l.commit])).toEqual([
      ["update-record", 1],
      ["complete-task", 1],
    ]);
    const { evals, fakes } = await loadEvals(join(ROOT, "examples/crm/evals.yaml"));
    const c = evals.cases!.find((x) => x.id === "close-acme-renewal")!;
    // The history is what is judged here; the case's rubric is left to the tests of rubrics.
    const verdict = await judgeRun({ fakes, case: { ...c, expect: { ...c.expect, rubrics: [] } }, run: { ...readRun(dir), answer: "Won." } });
    expect(verdict.results.filter((r) => !r.passed)).toEqual([]);
    expect(verdict.results.find((r) => r.assertion.startsWith("milestones[1]"))?.message).toBe("reached at commit #2 (call #2 crm/complete-task)");
  });

  it("judges a run killed with -9 on every acknowledged write, and a resumed run continues from them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-simulate-killed-run-"));
    const first = await startServe([CRM, "--clock", CLOCK, "--run-dir", dir]);
    const client = await connect(`http://127.0.0.1:${first.port}/crm/mcp`);
    for (const call of [won, complete]) expect((await client.callTool({ name: call.tool.split("/")[1], arguments: call.args })).isError).toBeFalsy();
    first.child.kill("SIGKILL");
    await first.exited;
    await client.close().catch(() => undefined);
    // Killed before any snapshot: the two commits are only in state.json.log.
    expect(existsSync(join(dir, "state.json.log"))).toBe(true);
    const { evals, fakes } = await loadEvals(join(ROOT, "examples/crm/evals.yaml"));
    const c = evals.cases!.find((x) => x.id === "close-acme-renewal")!;
    const verdict = await judgeRun({ fakes, case: { ...c, expect: { ...c.expect, rubrics: [] } }, run: { ...readRun(dir), answer: "Won." } });
    expect(verdict.results.filter((r) => !r.passed)).toEqual([]);

    const second = await startServe([CRM, "--clock", CLOCK, "--resume-state-file", join(dir, "state.json")], { EVAL_SIMULATE_RUN_DIR: dir });
    try {
      const deals = await (await fetch(`http://127.0.0.1:${second.port}/crm/admin/state`)).json();
      expect(JSON.stringify(deals)).toEqual(JSON.stringify(readRun(dir).final.crm));
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });
});
