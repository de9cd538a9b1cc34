// The CRM example's evals.yaml, judged on real runs: `eval-simulate serve --run-dir` in its own
// process, driven by a scripted client (the official MCP client), then `judgeRun` on the folder.
// Each case's own script must pass; a run that changes a record and changes it back, and one
// that leaves a different world than the golden path, must fail with the right message.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { labelId } from "eval-simulate";
import { judgeRun, loadEvals, readRun } from "eval-simulate/judge";
import { rubricJudge } from "eval-simulate/runner";

const EVALS = fileURLToPath(new URL("../evals.yaml", import.meta.url));
const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const BIN = join(createRequire(import.meta.url).resolve("eval-simulate/package.json"), "..", "dist/cli/main.js");

/** Serves the fakes in a process of their own, plays `calls` through the MCP client, stops it: the run folder. */
async function recordRun(calls, { scenario = "quiet", clock = "2026-10-01T09:00:00.000Z", answer } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "crm-run-"));
  const child = spawn(process.execPath, [
    BIN,
    "serve",
    MANIFEST,
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    "--run-dir",
    dir,
    "--scenario",
    scenario,
    "--clock",
    clock,
  ]);
  const exited = new Promise((resolve) => child.on("close", resolve));
  const port = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const found = /at http:\/\/[^:]+:(\d+)/.exec(out);
      if (found) resolve(Number(found[1]));
    });
    exited.then(() => reject(new Error(`serve exited: ${out}`)));
  });
  const client = new Client({ name: "scripted-agent", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/crm/mcp`)));
    for (const call of calls) await client.callTool({ name: call.tool.replace(/^crm\//, ""), arguments: call.arguments ?? {} }).catch(() => undefined);
  } finally {
    await client.close();
    child.kill("SIGTERM");
    await exited;
  }
  if (answer !== undefined) writeFileSync(join(dir, "answer.txt"), answer);
  return dir;
}

let evals;
let fakes;
// Rubrics are judged from the committed judgments beside evals.yaml, offline (no key, no model).
const rubrics = () => rubricJudge({ evalsFile: EVALS, judgeModel: evals.judgeModel, offline: true });
const caseOf = (id) => evals.cases.find((c) => c.id === id);
const messageOf = (verdict, assertion) => verdict.results.find((r) => r.assertion.startsWith(assertion))?.message;

before(async () => {
  ({ evals, fakes } = await loadEvals(EVALS));
});

test("every case's script passes its own expectations, golden world included", async () => {
  for (const c of evals.cases) {
    const verdict = await judgeRun({
      fakes,
      case: c,
      run: readRun(await recordRun(c.script.calls, { scenario: c.scenario, clock: c.clock, answer: c.script.answer })),
      rubrics: rubrics(),
    });
    assert.deepEqual(
      verdict.results.filter((r) => !r.passed),
      [],
      c.id,
    );
    assert.equal(verdict.verdict, "pass");
  }
});

test("a change undone within the run passes unchanged but not never", async () => {
  const c = caseOf("close-acme-renewal");
  const industry = (value) => ({
    tool: "crm/update-record",
    arguments: { object: "companies", record_id: labelId("company-acme"), values: { industry: value } },
  });
  const calls = [c.script.calls[1], industry("retail"), c.script.calls[3], industry("manufacturing")];
  const verdict = await judgeRun({ fakes, case: c, run: readRun(await recordRun(calls, { answer: "The deal is won." })) });
  assert.equal(verdict.verdict, "fail");
  assert.match(
    messageOf(verdict, "state.unchanged crm.companies"),
    /^crm\.companies is unchanged at the end \(changed and changed back within the run: commit #2/,
  );
  assert.equal(
    messageOf(verdict, "never[1]"),
    "broken at commit #2 (call #2 crm/update-record); it was undone at commit #4 (call #4 crm/update-record), so the final state alone does not show it",
  );
});

test("a run that leaves another world than the golden path fails with the record that differs", async () => {
  const c = caseOf("close-acme-renewal");
  const calls = [{ ...c.script.calls[1], arguments: { ...c.script.calls[1].arguments, values: { stage: "lost" } } }, c.script.calls[3]];
  const verdict = await judgeRun({ fakes, case: c, run: readRun(await recordRun(calls, { answer: "The deal is won." })) });
  assert.equal(verdict.verdict, "fail");
  assert.equal(
    messageOf(verdict, "golden"),
    `the final world differs from the golden world: crm.deals: record "${labelId("deal-acme")}": stage is "lost" in the run, "won" in the golden world`,
  );
});
