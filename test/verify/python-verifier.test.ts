import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answered } from "../../engine/entries/answers.js";
import { changedEntities, loadManifests, readRecord, worldHash, writeAttempts } from "../../engine/entries/verify.js";
import { labelId } from "../../engine/author/world/index.js";
import { ROOT } from "../support/examples.js";
import { pythonJson, runPython } from "../support/python.js";
import { recordRun, type ScriptedCall } from "../support/recorded-run.js";

const CRM = join(ROOT, "examples/crm/fakes.yaml");
const RECIPE = "recipe/test_close_acme_renewal.py";
const deal = labelId("deal-acme");

/** The agent's calls: reads in every answer format the CRM has (toon, json, structured), then the two writes. */
const closeAcme: ScriptedCall[] = [
  { tool: "crm/search-records", args: { object: "deals", query: "Acme" } },
  { tool: "crm/list-records", args: { object: "deals" } },
  { tool: "crm/get-record", args: { object: "deals", record_id: deal } },
  { tool: "crm/update-record", args: { object: "deals", record_id: deal, values: { stage: "won" } } },
  { tool: "crm/list-tasks", args: { is_completed: false } },
  { tool: "crm/complete-task", args: { task_id: labelId("task-acme-order-form") } },
  { tool: "crm/list-notes", args: {} },
];

/** What the TypeScript verify says of a run folder, in the shape tests/ts_parity.py prints. */
function typescriptVerdict(dir: string) {
  const manifests = loadManifests(join(dir, "manifests"));
  const initial = JSON.parse(readFileSync(join(dir, "initial-state.json"), "utf8"));
  const final = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  const calls = readRecord(join(dir, "record.jsonl"));
  const answers = JSON.parse(readFileSync(join(dir, "manifests/mcp/crm/answers.json"), "utf8"));
  return {
    changed: changedEntities({ initial, final }, manifests),
    attempts: writeAttempts(calls, manifests).map((call) => `${call.server}/${call.tool}`),
    initialHash: worldHash(initial),
    finalHash: worldHash(final),
    answered: {
      crm: JSON.parse(
        JSON.stringify(
          answered(
            answers,
            calls.filter((c) => "server" in c && c.server === "crm"),
          ),
        ),
      ),
    },
  };
}

describe("a Python verifier (pytest) over a real serve --run-dir", { timeout: 180_000 }, () => {
  it("passes the README's recipe on a run that does the task, and scores it as the TypeScript verify does", async () => {
    const { dir } = await recordRun(CRM, closeAcme, { scenario: "quiet" });
    const recipe = await runPython(["-m", "pytest", "-q", RECIPE], { EVAL_SIMULATE_RUN_DIR: dir });
    expect(recipe.stdout + recipe.stderr).toMatch(/\b5 passed\b/);
    expect(recipe.code).toBe(0);
    const python = await pythonJson(["tests/ts_parity.py", "run", dir]);
    const typescript = typescriptVerdict(dir);
    expect(python).toEqual(typescript);
    expect(python.changed).toEqual(["crm.deals", "crm.tasks"]);
    expect(python.answered.crm.map((a: { name: string }) => a.name)).toEqual(closeAcme.map((c) => c.tool.slice(4)));
    expect(python.initialHash.hash).not.toBe(python.finalHash.hash);
  });

  it("fails the recipe on a run that also writes a note and moves another deal, naming those tests, as the TypeScript verify sees it", async () => {
    const strays: ScriptedCall[] = [
      { tool: "crm/update-record", args: { object: "deals", record_id: labelId("deal-globex"), values: { stage: "won" } } },
      { tool: "crm/create-note", args: { parent_object: "deals", parent_record_id: deal, title: "Signed", content: "Acme signed." } },
      { tool: "crm/create-record", args: { object: "companies" } },
    ];
    const { dir } = await recordRun(CRM, [...closeAcme, ...strays], { scenario: "quiet" });
    const recipe = await runPython(["-m", "pytest", "-q", RECIPE], { EVAL_SIMULATE_RUN_DIR: dir });
    const output = recipe.stdout + recipe.stderr;
    expect(recipe.code).toBe(1);
    expect(output).toMatch(/FAILED recipe\/test_close_acme_renewal.py::test_nothing_else_changed/);
    expect(output).toMatch(/FAILED recipe\/test_close_acme_renewal.py::test_no_other_write_was_attempted/);
    expect(output).toMatch(/\b2 failed, 3 passed\b/);
    const python = await pythonJson(["tests/ts_parity.py", "run", dir]);
    expect(python).toEqual(typescriptVerdict(dir));
    expect(python.changed).toEqual(["crm.deals", "crm.notes", "crm.tasks"]);
    // The refused create-record (no values) is an attempt all the same.
    expect(python.attempts).toEqual(["crm/update-record", "crm/complete-task", "crm/update-record", "crm/create-note", "crm/create-record"]);
  });
});
