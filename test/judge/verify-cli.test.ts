import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { labelId } from "../../engine/author/world/index.js";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { recordRun } from "../support/recorded-run.js";

const CRM = join(ROOT, "examples/crm/fakes.yaml");
const EVALS = "examples/crm/evals.yaml";
const won = [
  { tool: "crm/update-record", args: { object: "deals", record_id: labelId("deal-acme"), values: { stage: "won" } } },
  { tool: "crm/complete-task", args: { task_id: labelId("task-acme-order-form") } },
];

let passing: string;
let failing: string;

// Each test runs the CLI as a process several times: slow on a busy machine, never stuck.
describe("eval-simulate verify", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    // The script's own answer: the example's committed judgment grades its rubric, offline.
    passing = (await recordRun(CRM, won, { answer: "The Acme renewal is won and the order-form task is closed." })).dir;
    failing = (await recordRun(CRM, [{ ...won[0], args: { ...won[0].args, values: { stage: "lost" } } }, won[1]], { answer: "The deal is won." })).dir;
  }, 180_000);

  it("exits 0 on a pass, printing each assertion and the verdict", async () => {
    const { code, stdout } = await runCli(["verify", EVALS, "--case", "close-acme-renewal", "--run", passing]);
    expect(code).toBe(0);
    expect(stdout).toContain("✓ golden: the final world equals the golden world");
    expect(stdout).toMatch(/^PASS close-acme-renewal: \d+ passed, 0 failed, 0 not evaluated \(/m);
  });

  it("exits 1 on a fail, with the evidence in every format", async () => {
    const text = await runCli(["verify", EVALS, "--case", "close-acme-renewal", "--run", failing]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      `✗ golden: the final world differs from the golden world: crm.deals: record "${labelId("deal-acme")}": stage is "lost" in the run, "won" in the golden world`,
    );
    expect(text.stdout).toMatch(/^FAIL close-acme-renewal: /m);

    const json = await runCli(["verify", EVALS, "--case", "close-acme-renewal", "--run", failing, "--format", "json"]);
    expect(json.code).toBe(1);
    const verdict = JSON.parse(json.stdout);
    expect(verdict).toMatchObject({ case: "close-acme-renewal", verdict: "fail" });
    expect(verdict.results.find((r: { kind: string }) => r.kind === "golden")).toMatchObject({
      passed: false,
      status: "failed",
      evidence: { hashes: { "crm.deals": {} } },
    });

    const github = await runCli(["verify", EVALS, "--case", "close-acme-renewal", "--run", failing, "--format", "github"]);
    expect(github.code).toBe(1);
    expect(github.stdout).toMatch(/^::error file=examples\/crm\/evals\.yaml,title=close-acme-renewal golden::the final world differs/m);
    expect(github.stdout).toMatch(/^::notice title=eval-simulate verify close-acme-renewal::FAIL: /m);
  });

  it("writes JUnit XML that parses: one testsuite, a testcase per assertion, failures with their evidence", async () => {
    const { code, stdout } = await runCli(["verify", EVALS, "--case", "close-acme-renewal", "--run", failing, "--format", "junit"]);
    expect(code).toBe(1);
    expect(XMLValidator.validate(stdout)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => name === "testcase" }).parse(stdout);
    const suite = doc.testsuites.testsuite;
    expect(suite.name).toBe("close-acme-renewal");
    expect(Number(suite.tests)).toBe(suite.testcase.length);
    const failures = suite.testcase.filter((t: { failure?: unknown }) => t.failure);
    expect(Number(suite.failures)).toBe(failures.length);
    expect(Number(doc.testsuites.failures)).toBe(failures.length);
    const golden = suite.testcase.find((t: { name: string }) => t.name === "golden");
    expect(golden.classname).toBe("close-acme-renewal");
    expect(golden.failure.type).toBe("golden");
    expect(golden.failure.message).toContain('stage is "lost" in the run');
    expect(golden.failure["#text"]).toContain('"crm.deals"');
  });

  it("exits 2 when the case cannot be evaluated (a golden call fails), marking it skipped in JUnit", async () => {
    // The fixture names the crm example's fakes, outside its own folder.
    const file = "test/fixtures/evals/golden-broken.evals.yaml";
    const text = await runCli(["verify", file, "--run", passing, "--allow-outside"]);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain(
      "○ golden: the golden path cannot be replayed: golden call #1 crm/complete-task failed where the reference's call succeeded: No task has the ID 00000000-0000-5000-8000-000000000000.",
    );
    expect(text.stdout).toMatch(/^NOT EVALUATED broken-golden: /m);
    const junit = await runCli(["verify", file, "--run", passing, "--format", "junit", "--allow-outside"]);
    expect(junit.code).toBe(2);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => name === "testcase" }).parse(junit.stdout);
    expect(doc.testsuites.testsuite.skipped).toBe("1");
    expect(doc.testsuites.testsuite.testcase.find((t: { name: string }) => t.name === "golden").skipped.message).toMatch(/cannot be replayed/);
  });

  it("exits 2 on usage errors: no run, an unknown case, a missing run folder, an invalid evals file", async () => {
    expect((await runCli(["verify", EVALS, "--case", "close-acme-renewal"])).stderr).toContain("give one of --run DIR (a run folder) or --server URL");
    const unknown = await runCli(["verify", EVALS, "--case", "nope", "--run", passing]);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([
      2,
      'eval-simulate verify: no case "nope" in examples/crm/evals.yaml; its cases: close-acme-renewal, pipeline-value, log-globex-call-note, follow-up-task-for-umbrella, open-tasks-read-only',
    ]);
    const choose = await runCli(["verify", EVALS, "--run", passing]);
    expect([choose.code, choose.stderr.trim()]).toEqual([
      2,
      "eval-simulate verify: name the case with --case: close-acme-renewal, pipeline-value, log-globex-call-note, follow-up-task-for-umbrella, open-tasks-read-only",
    ]);
    const missing = await runCli(["verify", EVALS, "--case", "pipeline-value", "--run", "/nonexistent/run"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("the run has no initial state: /nonexistent/run/initial-state.json does not exist");
    const invalid = await runCli(["verify", "test/fixtures/evals/error-schema.evals.yaml", "--run", passing]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('error-schema.evals.yaml:7:7 error E_UNKNOWN_KEY unknown key "call" in cases[0].expect. Did you mean "calls"?');
    expect((await runCli(["verify", EVALS, "--run", passing, "--formt", "json"])).code).toBe(2);
  });

  it("skips (exit 0), never passes, a case whose only missing grade is a rubric with no cached judgment and no key; prints the score", async () => {
    const other = mkdtempSync(join(tmpdir(), "eval-simulate-run-"));
    cpSync(passing, other, { recursive: true });
    writeFileSync(join(other, "answer.txt"), "Done: the deal is won.\n");
    const skipped = await runCli(["verify", EVALS, "--case", "close-acme-renewal", "--run", other], { env: { ANTHROPIC_API_KEY: "" } });
    expect(skipped.stdout).toContain(
      "○ rubrics[0] the reply tells the user both things were done: no judgment cached and no key: set ANTHROPIC_API_KEY to judge with anthropic:claude-sonnet-4-5",
    );
    expect(skipped.stdout).toMatch(/^SKIPPED close-acme-renewal: 13 passed, 0 failed, 1 not evaluated \(.*\); score 1\.00 \(1 not evaluated left out\)$/m);
    expect(skipped.code).toBe(0);
    const junit = await runCli(["verify", EVALS, "--case", "close-acme-renewal", "--run", passing, "--format", "junit"]);
    expect(junit.stdout).toContain('<properties><property name="score" value="1"/></properties>');
    const json = JSON.parse(
      (await runCli(["verify", EVALS, "--case", "close-acme-renewal", "--run", other, "--format", "json"], { env: { ANTHROPIC_API_KEY: "" } })).stdout,
    );
    expect(json).toMatchObject({ verdict: "skipped", score: { score: 1, passed: 12, of: 12, notEvaluated: 1 } });
    // 13 passed, but the run's starting world is a precondition, not scored.
  });

  it("judges a live server through its admin routes with the admin token", async () => {
    const { startServe } = await import("../support/cli-process.js");
    const { connect } = await import("../support/services.js");
    const serve = await startServe([CRM, "--clock", "2026-10-01T09:00:00.000Z"], { EVAL_SIMULATE_ADMIN_TOKEN: "s3cret" });
    try {
      const client = await connect(`http://127.0.0.1:${serve.port}/crm/mcp`);
      await client.callTool({ name: "search-records", arguments: { object: "deals", query: "Acme" } });
      await client.close();
      const server = `http://127.0.0.1:${serve.port}`;
      const denied = await runCli(["verify", EVALS, "--case", "pipeline-value", "--server", server]);
      expect(denied.code).toBe(2);
      expect(denied.stderr).toContain("answered 401: pass the admin token");
      const judged = await runCli([
        "verify",
        EVALS,
        "--case",
        "pipeline-value",
        "--server",
        server,
        "--token",
        "s3cret",
        "--answer",
        "The Acme renewal is worth 48,000 USD.",
      ]);
      expect(judged.stdout).toContain(
        "✓ rubrics[0] the reply answers the question with the deal's value: pass, score 1 (threshold 0.8), by anthropic:claude-sonnet-4-5 (cached)",
      );
      expect(judged.stdout).toMatch(/^PASS pipeline-value: 5 passed, 0 failed, 0 not evaluated/m);
      expect(judged.code).toBe(0);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});

describe("eval-simulate validate on evals files", { timeout: 120_000 }, () => {
  it("reports every problem of an evals file at its file:line:column, checked against its fakes", async () => {
    const { code, stdout } = await runCli(["validate", "test/fixtures/evals/error-names.evals.yaml", "--format", "json", "--allow-outside"]);
    expect(code).toBe(1);
    const [file] = JSON.parse(stdout).files;
    expect(file.diagnostics.map((d: { code: string; line: number; column: number }) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      "5:15 E_UNKNOWN_SCENARIO",
      "6:5 E_CASE",
      "9:17 E_UNKNOWN_TOOL",
      "10:40 E_PATTERN",
      "10:73 E_PATTERN",
      "12:19 E_UNKNOWN_ENTITY",
      "14:11 E_UNKNOWN_ENTITY",
      "17:49 E_JSONATA_SYNTAX",
      "18:15 E_CASE",
      "19:9 E_DUPLICATE_ID",
    ]);
    expect(file.diagnostics[2].message).toBe('no fake serves a tool named "mail/send-emial". Did you mean "mail/send-email"?');
  });

  it("names entities no fake has in JSONata and a bare tool typo, each with the nearest name", async () => {
    const { code, stdout } = await runCli(["validate", "test/fixtures/evals/error-entity-reads.evals.yaml", "--format", "json", "--allow-outside"]);
    expect(code).toBe(1);
    const [file] = JSON.parse(stdout).files;
    expect(
      file.diagnostics.map((d: { code: string; line: number; column: number; message: string }) => `${d.line}:${d.column} ${d.code} ${d.message}`),
    ).toEqual([
      '6:23 E_UNKNOWN_TOOL no fake serves a tool named "send-emial". Did you mean "send-email"?',
      '10:42 E_UNKNOWN_ENTITY $final.mail.emials names no entity of mail. Did you mean "mail.emails"?',
      '13:35 E_UNKNOWN_ENTITY $world.mial names no fake of the manifest. Did you mean "mail"?',
    ]);
  });

  it("accepts the examples' evals files beside their manifests", async () => {
    const { code, stdout } = await runCli(["validate", "examples/mail/fakes.yaml", "examples/mail/evals.yaml", "examples/crm/evals.yaml"]);
    expect(stdout).toContain("✓ examples/mail/evals.yaml is valid: 2 cases");
    expect(stdout).toContain("✓ examples/crm/evals.yaml is valid: 5 cases");
    expect(code).toBe(0);
  });

  it("names a fakes manifest that cannot be loaded", async () => {
    const { code, stdout } = await runCli(["validate", "test/fixtures/evals/missing-fakes.evals.yaml"]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/missing-fakes\.evals\.yaml:2:8 error E_FAKES the fakes manifest nowhere\/fakes\.yaml cannot be loaded/);
  });
});
