import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import type { EvalsDocument } from "../../schema/evals/evals.js";
import { runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { type ScriptedProvider, startScriptedProvider } from "../support/scripted-provider.js";

const SUBSETS = `${ROOT}test/fixtures/subsets/fakes.yaml`;
const AGENT = `${ROOT}test/fixtures/agent-cli/subset-agent.mjs`;

/** An evals.yaml of these cases beside a copy of the subsets fixture (an evals file's `fakes:` stays in its folder). */
function writeEvals(cases: string): string {
  const dir = mkdtempSync(join(tmpdir(), "eval-simulate-subsets-"));
  cpSync(dirname(SUBSETS), dir, { recursive: true });
  const file = join(dir, "evals.yaml");
  writeFileSync(file, `version: 1\nfakes: fakes.yaml\ncases:\n${cases}`);
  return file;
}

let provider: ScriptedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe("an eval case that names the fakes it needs", () => {
  it("plays its script in a session of only those fakes (the script host)", async () => {
    const result = await runEvals({ evals: `${ROOT}test/fixtures/subsets/evals.yaml` });
    expect(result.cases[0]).toMatchObject({ case: "email-ada", passed: 1, verdict: "pass" });
    const [line] = result.lines;
    expect(line.session!.record.map((r) => (r as { server: string }).server)).toEqual(["crm", "mail"]);
    expect(line.badCalls).toMatchObject({ total: 0 });
  }, 60_000);

  it("fails a script that calls a fake its case leaves out (a document given unvalidated), without calling it", async () => {
    const fakes = await loadFakes(SUBSETS);
    const evals = {
      version: 1,
      fakes: SUBSETS,
      cases: [{ id: "reaches-out", fakes: ["crm"], script: { calls: [{ tool: "calendar/list-events" }] }, expect: {} }],
    } as unknown as EvalsDocument;
    const result = await runEvals({ evals: { evals, fakes } });
    expect(result.lines[0]).toMatchObject({
      status: "fail",
      reason: "script call #1 calendar/list-events: calendar is not among the case's fakes (crm)",
      calls: 0,
    });
  }, 60_000);

  it("gives an agent CLI an MCP config of only those fakes; another fake's URL in its session is 404, a request outside it", async () => {
    const file = writeEvals(`
  - id: agent-sees-its-fakes
    fakes: [mail, crm]
    prompt: Email Ada.
    host: { type: command, command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(AGENT)}, --mcp-config, "{{mcpConfig}}"] }
    expect:
      calls: [{ tool: mail/send-email }]
`);
    const result = await runEvals({ evals: file });
    const [line] = result.lines;
    expect(JSON.parse(line.answer!)).toEqual({ servers: ["crm", "mail"], tools: { crm: ["find-records"], mail: ["send-email"] }, calendar: 404 });
    expect(line.outside?.map((o) => o.kind)).toEqual(["unserved"]);
    expect(line.outside?.[0].path).toMatch(/^\/s\/[0-9a-f]+~…\/calendar\/mcp$/);
    expect(line.badCalls).toMatchObject({ outsideSession: 1 });
  }, 60_000);

  it("offers a model only those fakes' tools (the model host)", async () => {
    provider = await startScriptedProvider(() => ({ text: "Nothing to do." }));
    const file = writeEvals(`
  - id: model-sees-its-fakes
    fakes: [crm, mail]
    prompt: Email Ada.
    host: { type: model, model: "openai-compatible:qwen3", baseURL: "${provider.baseURL}" }
    expect:
      answer: { contains: Nothing }
`);
    const result = await runEvals({ evals: file, env: {} });
    expect(result.lines[0].status).toBe("pass");
    const offered = (provider.requests[0].body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(offered).toEqual(["find-records", "send-email"]);
  }, 60_000);

  it("serves every fake to a case that names none", async () => {
    const file = writeEvals(`
  - id: every-fake
    prompt: Email Ada.
    host: { type: command, command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(AGENT)}, --mcp-config, "{{mcpConfig}}"] }
    expect:
      calls: [{ tool: mail/send-email }]
`);
    const result = await runEvals({ evals: file });
    const seen = JSON.parse(result.lines[0].answer!);
    expect(seen.servers).toEqual(["crm", "mail", "calendar"]);
    expect(seen.calendar).not.toBe(404);
    expect(result.lines[0].outside).toBeUndefined();
  }, 60_000);

  it("is refused by validate, at file:line:column, for an unknown fake (did you mean), a required one left out, and a script calling a fake left out", async () => {
    const { code, stdout } = await runCli(["validate", "test/fixtures/subsets/error-fakes.evals.yaml", "--format", "json"]);
    expect(code).toBe(1);
    const [file] = JSON.parse(stdout).files;
    expect(
      file.diagnostics.map((d: { code: string; line: number; column: number; message: string }) => `${d.line}:${d.column} ${d.code} ${d.message}`),
    ).toEqual([
      '5:18 E_UNKNOWN_FAKE no fake "mial" in the fakes manifest. Did you mean "mail"?',
      `8:5 E_CASE the case's fakes leave out "crm", which the manifest marks required: true`,
      `12:19 E_UNKNOWN_TOOL billing/listInvoices is served by "billing", which the case's fakes (mail, calendar) leave out`,
    ]);
  }, 60_000);
});
