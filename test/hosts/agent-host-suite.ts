/**
 * One suite every agent host runs, as unstorage runs one suite over every driver: the contract of
 * `AgentHost` (engine/eval/hosts/agent-host.ts) checked of the script, model and command hosts
 * and of a host written the way a user writes one. Each host's file says how its agent follows a
 * plan (a script, a scripted provider, an agent CLI, plain code); the suite asks the same of all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalCase } from "../../schema/evals/evals.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import type { AgentHost } from "../../engine/eval/hosts/agent-host.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { startServices } from "../../engine/serve/host/start-services.js";
import { CRM_CLOCK, CRM_FAKES, writeEvals } from "../support/evals-files.js";

/** One call the agent makes, to an MCP fake's tool. */
export interface PlannedCall {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** What the agent does in a trial, in the suite's terms; each host's file turns it into its own. */
export interface AgentPlan {
  calls: PlannedCall[];
  /** Its final message, given after its calls. */
  answer: string;
  /**
   * How it ends instead of answering, after its calls: `lost`, the trial lost to what runs the
   * agent (a provider that keeps failing, a CLI that exits non-zero, a throw); `fatal`, a
   * failure no trial could survive (a bad key).
   */
  ends?: "lost" | "fatal";
}

/** A host under test: made once per file, asked for a host per plan. */
export interface HostUnderTest {
  /** A host whose agent does what `plan` says (the same plan for every trial of the run). */
  host(plan: AgentPlan): AgentHost;
  close?(): Promise<void>;
}

export interface AgentHostSuiteOptions {
  /** The label its lines carry (`model` of a trial line). */
  label: string;
  /** Its agents can lose a trial to infrastructure (the script host has none to lose). */
  losesTrials: boolean;
  /** Its agents can stop the run (a model host's bad key; a command's agent cannot). */
  stopsRuns: boolean;
}

const UMBRELLA = "0080618c-1fdc-54e1-9e26-73c948373f91";
const SEARCH: PlannedCall = { server: "crm", tool: "search-records", arguments: { object: "companies", query: "Umbrella" } };
const NOTE: PlannedCall = {
  server: "crm",
  tool: "create-note",
  arguments: { parent_object: "companies", parent_record_id: UMBRELLA, title: "Kick-off", content: "Kick-off call booked." },
};

/** An evals case for a plan: its prompt for agents, its script for the script host, what is expected. */
function planCase(id: string, plan: AgentPlan, expectations: Record<string, unknown>, iterations = 1): EvalCase {
  return {
    id,
    scenario: "quiet",
    clock: CRM_CLOCK,
    prompt: "Log a kick-off note on Umbrella Health.",
    iterations,
    accuracyThreshold: 1,
    maxSteps: 4,
    script: { calls: plan.calls.map((call) => ({ tool: `${call.server}/${call.tool}`, arguments: call.arguments })), answer: plan.answer },
    expect: expectations,
  } as EvalCase;
}

/** An evals file of these cases against the crm example's fakes. */
const evalsOf = (...cases: EvalCase[]) => writeEvals(cases.map((c) => `  - ${JSON.stringify(c)}\n`).join("")).file;

/**
 * Runs the shared suite over one host.
 *
 * @example describeAgentHost("the script host", async () => ({ host: () => scriptHost() }), { label: "script", losesTrials: false, stopsRuns: false });
 */
export function describeAgentHost(name: string, setup: () => Promise<HostUnderTest>, options: AgentHostSuiteOptions): void {
  describe(`${name} keeps the AgentHost contract`, () => {
    let under: HostUnderTest;
    beforeAll(async () => {
      under = await setup();
    });
    afterAll(async () => {
      await under?.close?.();
    });

    it("makes its calls in the trial's own session, and each trial is judged from that session's record", async () => {
      const plan: AgentPlan = { calls: [SEARCH, NOTE], answer: "Kick-off noted." };
      const file = evalsOf(
        planCase(
          "note-on-umbrella",
          plan,
          {
            calls: [
              { tool: "crm/search-records", arguments: { query: { $pattern: "umbrella", $flags: "i" } } },
              { tool: "crm/create-note", arguments: { title: "Kick-off" } },
            ],
            order: "strict",
            state: { changed: ["crm.notes"], only: true },
          },
          2,
        ),
      );
      const result = await runEvals({ evals: file, host: under.host(plan), concurrency: 2 });
      expect(result.cases[0]).toMatchObject({ model: options.label, passed: 2, failed: 0, notRun: 0, verdict: "pass", toolCalls: 4 });
      expect(result.lines.map((line) => line.model)).toEqual([options.label, options.label]);
      // Two trials at once, two sessions: each record holds its own two calls and nothing else.
      expect(new Set(result.lines.map((line) => line.session?.id)).size).toBe(2);
      for (const line of result.lines) {
        expect(line.session?.record.map((call) => (call as { tool: string }).tool)).toEqual(["search-records", "create-note"]);
        expect(line.session?.record[1]).toMatchObject({ server: "crm", tool: "create-note", commit: 1 });
      }
    }, 60_000);

    it("hands its final message to the answer assertions, which pass or fail on it", async () => {
      const plan: AgentPlan = { calls: [], answer: "Kick-off noted." };
      const file = evalsOf(
        planCase("answer-matches", plan, { answer: { contains: "noted" } }),
        planCase("answer-differs", plan, { answer: { pattern: "^Nothing to do" } }),
      );
      const result = await runEvals({ evals: file, host: under.host(plan), concurrency: 1 });
      const byCase = Object.fromEntries(result.lines.map((line) => [line.case, line]));
      expect(byCase["answer-matches"]).toMatchObject({ status: "pass", answer: "Kick-off noted." });
      expect(byCase["answer-differs"]).toMatchObject({ status: "fail", answer: "Kick-off noted." });
      const answers = (line: (typeof result.lines)[number]) => (line.assertions as Array<{ kind: string }>).filter((a) => a.kind === "answer");
      expect(answers(byCase["answer-matches"])).toEqual([expect.objectContaining({ passed: true, assertion: "answer.contains" })]);
      expect(answers(byCase["answer-differs"])).toEqual([
        expect.objectContaining({ passed: false, message: 'the answer does not match /^Nothing to do/: "Kick-off noted."' }),
      ]);
    }, 60_000);

    it("takes a conversation turn by turn in one session: each turn's message in, its reply out, the last as the answer", async () => {
      const plan: AgentPlan = { calls: [], answer: "Kick-off noted." };
      const { script: _script, ...single } = planCase("two-turns", plan, { turns: { exact: 2 }, answer: { contains: "noted" } });
      const c = { ...single, turns: [{ answer: plan.answer }, { user: "And the date is 3 March.", answer: plan.answer }] } as EvalCase;
      const result = await runEvals({ evals: evalsOf(c), host: under.host(plan) });
      const line = result.lines[0];
      expect(line).toMatchObject({ status: "pass", turns: 2, answer: "Kick-off noted.", calls: 0 });
      expect(line.transcript?.map((m) => [m.turn, m.role, m.content])).toEqual([
        [1, "user", "Log a kick-off note on Umbrella Health."],
        [1, "assistant", "Kick-off noted."],
        [2, "user", "And the date is 3 March."],
        [2, "assistant", "Kick-off noted."],
      ]);
    }, 60_000);

    it("stops when its trial's signal aborts: no call after the abort, and run() settles", async () => {
      const plan: AgentPlan = { calls: [SEARCH, NOTE], answer: "Kick-off noted." };
      const fakes = await loadFakes(CRM_FAKES);
      const abort = new AbortController();
      const seen: Array<Record<string, unknown>> = [];
      let sessionId: string | undefined;
      // The trial's signal aborts as its first call is recorded, before the call has answered.
      const services = await startServices(fakes.fakes, {
        world: fakes.world,
        sessionsOnly: true,
        adminToken: "a-token-only-this-test-holds-0123456789",
        onRecord: (line) => {
          if (line.session !== sessionId) return;
          seen.push(line);
          abort.abort(new Error("the run was interrupted"));
        },
      });
      try {
        const session = await services.createSession({ scenario: "quiet", clock: CRM_CLOCK, secret: true });
        sessionId = session.id;
        const c = planCase("stopped-midway", plan, { calls: [{ tool: "crm/create-note" }] });
        // Resolving and throwing both keep the contract; never settling fails by the test's timeout.
        await under
          .host(plan)
          .run({ case: c, iteration: 0, session, fakes, signal: abort.signal })
          .catch(() => undefined);
        expect(abort.signal.aborted).toBe(true);
        await session.close();
        expect(seen.map((line) => line.tool)).toEqual(["search-records"]);
      } finally {
        await services.close();
      }
    }, 60_000);

    if (options.losesTrials) {
      it("counts a trial its agent lost as not run: not scored, its calls kept, the run PRELIMINARY (exit 2)", async () => {
        const plan: AgentPlan = { calls: [NOTE], answer: "Kick-off noted.", ends: "lost" };
        const file = evalsOf(planCase("lost-trial", plan, { calls: [{ tool: "crm/create-note" }] }));
        const result = await runEvals({ evals: file, host: under.host(plan) });
        expect(result.lines[0]).toMatchObject({ status: "not_run", reason: expect.any(String), assertions: [] });
        expect(result.lines[0].session?.record).toEqual([expect.objectContaining({ server: "crm", tool: "create-note" })]);
        expect(result.cases[0]).toMatchObject({ passed: 0, failed: 0, notRun: 1, verdict: "preliminary" });
        expect(result).toMatchObject({ verdict: "preliminary", exitCode: 2 });
      }, 60_000);
    }

    if (options.stopsRuns) {
      it("stops the whole run at a fatal failure, starting none of the remaining trials", async () => {
        const plan: AgentPlan = { calls: [NOTE], answer: "Kick-off noted.", ends: "fatal" };
        const file = evalsOf(planCase("fatal-trial", plan, { calls: [{ tool: "crm/create-note" }] }, 3));
        const result = await runEvals({ evals: file, host: under.host(plan), concurrency: 1 });
        // The first trial stopped the run; had another started, it would have a line of its own.
        expect(result.lines).toEqual([]);
        expect(result.stopped).toEqual(expect.any(String));
        expect(result.cases[0]).toMatchObject({ notRun: 3, verdict: "preliminary" });
        expect(result.exitCode).toBe(2);
      }, 60_000);
    }
  });
}
