// The mail example's evals.yaml, judged on real runs: `eval-simulate serve --run-dir` in its own
// process, driven by a scripted client (the official MCP client), then `judgeRun` on the folder.
// Each case's own script must pass; runs that go wrong must fail with the right message.
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
  const dir = mkdtempSync(join(tmpdir(), "mail-run-"));
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
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mail/mcp`)));
    for (const call of calls) await client.callTool({ name: call.tool.replace(/^mail\//, ""), arguments: call.arguments ?? {} }).catch(() => undefined);
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

test("every case's script passes its own expectations", async () => {
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

test("a resend to the address that bounced is rejected: the nearest call and the broken never", async () => {
  const c = caseOf("resend-bounced-quote");
  const calls = c.script.calls.map((call) =>
    call.tool === "mail/send-email" ? { ...call, arguments: { ...call.arguments, to: "d.whitfield@acme.example" } } : call,
  );
  const verdict = await judgeRun({ fakes, case: c, run: readRun(await recordRun(calls, { answer: "Resent." })) });
  assert.equal(verdict.verdict, "fail");
  assert.equal(
    messageOf(verdict, "calls[2]"),
    'expected mail/send-email with to = "dana.whitfield@acme.example", subject ~ /renewal quote/i; saw to = "d.whitfield@acme.example" at call #3',
  );
  assert.equal(messageOf(verdict, "never[0]"), "broken at commit #1 (call #3 mail/send-email)");
});

test("canceling the reminder on the way is caught by never and the diff", async () => {
  const c = caseOf("resend-bounced-quote");
  const calls = [...c.script.calls, { tool: "mail/cancel-email", arguments: { id: labelId("email-reminder") } }];
  const verdict = await judgeRun({ fakes, case: c, run: readRun(await recordRun(calls, { answer: "Resent." })) });
  assert.equal(verdict.verdict, "fail");
  assert.equal(messageOf(verdict, "never[1]"), "broken at commit #2 (call #4 mail/cancel-email)");
  assert.match(messageOf(verdict, "exclusive"), /^only mail\/list-emails, mail\/get-email, mail\/send-email may be called; saw #4 mail\/cancel-email$/);
  assert.match(messageOf(verdict, "state.diff mail.emails"), /was updated unexpectedly/);
});
