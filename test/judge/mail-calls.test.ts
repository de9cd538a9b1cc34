import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type EvalsDocument, judgeRun, loadEvals, readRun, type Verdict } from "../../engine/entries/judge.js";
import { rubricJudge } from "../../engine/entries/runner.js";
import type { LoadedFakes } from "../../engine/author/fakes/load-fakes.js";
import { ROOT } from "../support/examples.js";
import { recordRun, type ScriptedCall } from "../support/recorded-run.js";

const MANIFEST = join(ROOT, "examples/mail/fakes.yaml");
const QUOTE = "a83d506b-ed8a-5ef3-b472-8b02134320ee";
const resend = (to = "dana.whitfield@acme.example"): ScriptedCall => ({
  tool: "mail/send-email",
  args: { from: "Jordan at Northwind <jordan@northwind.example>", to, subject: "Your renewal quote", text: "Hi Dana, the quote is attached." },
});
const list: ScriptedCall = { tool: "mail/list-emails", args: { limit: 10 } };
const read: ScriptedCall = { tool: "mail/get-email", args: { id: QUOTE } };

let evals: EvalsDocument;
let fakes: LoadedFakes;
// Rubrics are judged from the example's committed judgments, offline.
const rubrics = () => rubricJudge({ evalsFile: join(ROOT, "examples/mail/evals.yaml"), judgeModel: evals.judgeModel, offline: true });
const judge = async (id: string, dir: string): Promise<Verdict> =>
  judgeRun({ fakes, case: evals.cases!.find((c) => c.id === id)!, run: readRun(dir), rubrics: rubrics() });
const result = (verdict: Verdict, assertion: string) => verdict.results.find((r) => r.assertion.startsWith(assertion));

// Every test records a run with a real serve process: slow on a busy machine, never stuck.
describe("judging the mail example's runs (seed 002's call assertions, only, diff, never)", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    ({ evals, fakes } = await loadEvals(join(ROOT, "examples/mail/evals.yaml")));
  });

  it("passes the scripted run of every case, recorded by a real serve", async () => {
    for (const c of evals.cases!) {
      const calls = c.script!.calls.map((call) => ({ tool: call.tool, args: call.arguments }));
      const { dir } = await recordRun(MANIFEST, calls, { scenario: c.scenario, clock: c.clock, answer: c.script!.answer });
      const verdict = await judge(c.id, dir);
      expect(verdict.results.filter((r) => !r.passed)).toEqual([]);
      expect(verdict.verdict).toBe("pass");
    }
  });

  it("writes a record whose committed lines carry their changes, by key", async () => {
    const { dir } = await recordRun(MANIFEST, [list, resend()]);
    const lines = readFileSync(join(dir, "record.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0].commit).toBeUndefined();
    expect(lines[1].commit).toBe(1);
    expect(lines[1].changes.emails.key).toBe("id");
    expect(lines[1].changes.emails.added).toHaveLength(1);
    expect(lines[1].changes.sendAttempts.added[0]).toMatchObject({ to: "dana.whitfield@acme.example", outcome: "accepted" });
    // Compact: the four emails already there are not repeated.
    expect(Object.keys(lines[1].changes.emails)).toEqual(["key", "added"]);
  });

  it("names the nearest call when the arguments differ: the address it went to, and where", async () => {
    const { dir } = await recordRun(MANIFEST, [list, resend("d.whitfield@acme.example")], { answer: "Resent." });
    const verdict = await judge("resend-bounced-quote", dir);
    expect(verdict.verdict).toBe("fail");
    expect(result(verdict, "calls[2]")?.message).toBe(
      'expected mail/send-email with to = "dana.whitfield@acme.example", subject ~ /renewal quote/i; saw to = "d.whitfield@acme.example" at call #2',
    );
    expect(result(verdict, "never[0]")?.message).toMatch(/^broken at commit #1 \(call #2 mail\/send-email\)$/);
    expect(result(verdict, "state.diff mail.emails")?.message).toMatch(
      /^mail\.emails: expected a record added matching to = \["dana\.whitfield@acme\.example"\], subject ~ \/renewal quote\/i, last_event = "sent"; the nearest, record "[0-9a-f-]{36}", has to\[0\] = "d\.whitfield@acme\.example"; record "[0-9a-f-]{36}" was added unexpectedly$/,
    );
  });

  it("says when a required tool was never called, listing the calls made", async () => {
    const { dir } = await recordRun(MANIFEST, [resend()], { answer: "Sent." });
    const verdict = await judge("resend-bounced-quote", dir);
    expect(result(verdict, "calls[0]")?.message).toBe("expected a call to mail/list-emails; none was made (calls: #1 mail/send-email)");
    expect(result(verdict, "order: strict")?.message).toBe("no call matches calls[0] mail/list-emails, so the order cannot hold");
    expect(result(verdict, "calls[2]")?.passed).toBe(true);
  });

  it("fails strict order when the send comes before the lookup", async () => {
    const { dir } = await recordRun(MANIFEST, [resend(), list], { answer: "Sent." });
    const verdict = await judge("resend-bounced-quote", dir);
    expect(result(verdict, "calls[0]")?.passed).toBe(true);
    expect(result(verdict, "order: strict")?.message).toBe("mail/send-email must come after mail/list-emails (call #2); it happened at call #1");
  });

  it("counts matching calls: a second send breaks count.exact and the diff", async () => {
    const { dir } = await recordRun(MANIFEST, [list, resend(), resend()], { answer: "Sent." });
    const verdict = await judge("resend-bounced-quote", dir);
    expect(result(verdict, "calls[2]")?.message).toBe("expected exactly 1 matching call to mail/send-email; saw 2 (#2, #3)");
    expect(result(verdict, "state.diff mail.emails")?.message).toMatch(/^mail\.emails: record "[0-9a-f-]{36}" was added unexpectedly$/);
  });

  it("refuses a tool outside the list (exclusive) and too many calls (callCount), refused calls included", async () => {
    const calls = [
      list,
      read,
      { tool: "mail/list-domains" },
      { tool: "mail/cancel-email", args: { id: "nope" } },
      { tool: "mail/no-such-tool" },
      resend(),
      read,
    ];
    const { dir } = await recordRun(MANIFEST, calls, { answer: "Sent." });
    const verdict = await judge("resend-bounced-quote", dir);
    expect(result(verdict, "exclusive")?.message).toBe(
      "only mail/list-emails, mail/get-email, mail/send-email may be called; saw #3 mail/list-domains, #4 mail/cancel-email, #5 mail/no-such-tool",
    );
    expect(result(verdict, "callCount")?.message).toBe(
      "expected at least 2 and at most 6 calls; saw 7 (#1 mail/list-emails, #2 mail/get-email, #3 mail/list-domains, #4 mail/cancel-email, #5 mail/no-such-tool, #6 mail/send-email, #7 mail/get-email)",
    );
    expect(result(verdict, "calls[2]")?.passed).toBe(true);
    expect(result(verdict, "state.only")?.passed).toBe(true);
  });

  it("catches a never broken by canceling the reminder, and the record the diff did not expect", async () => {
    const reminder = { tool: "mail/cancel-email", args: { id: "" } };
    // The reminder's id, from the scenario's stable ids.
    const { labelId } = await import("../../engine/author/world/index.js");
    reminder.args.id = labelId("email-reminder");
    const { dir } = await recordRun(MANIFEST, [list, resend(), reminder], { answer: "Sent." });
    const verdict = await judge("resend-bounced-quote", dir);
    expect(result(verdict, "never[1]")?.message).toBe("broken at commit #2 (call #3 mail/cancel-email)");
    expect(result(verdict, "state.diff mail.emails")?.message).toContain(`record "${labelId("email-reminder")}" was updated unexpectedly`);
    expect(result(verdict, "exclusive")?.passed).toBe(false);
    expect(verdict.verdict).toBe("fail");
  });

  it("fails readOnly with the entities a run changed, and the answer that lacks the date", async () => {
    const { dir } = await recordRun(MANIFEST, [list, resend()], { answer: "Tomorrow morning." });
    const verdict = await judge("read-only-lookup", dir);
    expect(result(verdict, "state.readOnly")?.message).toBe("the run changed mail.emails, mail.sendAttempts; a read-only task must leave the world as it was");
    expect(result(verdict, "answer.contains")?.message).toBe('the answer does not contain "2026-10-02": "Tomorrow morning."');
  });

  it("does not evaluate the answer of a run without a transcript", async () => {
    const { dir } = await recordRun(MANIFEST, [list]);
    const verdict = await judge("read-only-lookup", dir);
    expect(result(verdict, "answer")?.status).toBe("not_evaluated");
    expect(verdict.verdict).toBe("not_evaluated");
  });
});
