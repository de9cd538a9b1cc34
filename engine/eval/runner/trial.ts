/**
 * One trial: a fresh session from the case's scenario and clock, the agent run in it, the
 * session closed once its calls have settled, and the judge's verdict on what it did. A trial
 * lost to infrastructure is "not run", never scored.
 */
import type { EvalCase } from "../../../schema/evals/evals.js";
import type { LoadedFakes } from "../../author/fakes/index.js";
import type { Services } from "../../serve/host/index.js";
import { judgeRun } from "../../judge/evals/index.js";
import { badCalls } from "../../judge/selection/index.js";
import type { AssertionResult, RubricJudge, Verdict } from "../../judge/evals/index.js";
import type { StatesByFake } from "../../core/record/index.js";
import { type AgentHost, type AgentOutcome, type AgentTrial, FatalRunError, NO_USAGE, type UserSimulator } from "../hosts/index.js";
import type { RecordCollector } from "./record-collector.js";
import { capAnswer, capRecord, capTranscript, type TrialLine } from "../results/index.js";
import { type Conversation, isConversation, runConversation, scriptedUser } from "../conversation/index.js";
import { endTrialSpan, trialSpan } from "../../serve/telemetry/index.js";
import { type RunModels, trialModels } from "../cassettes/index.js";

export interface TrialInput {
  host: AgentHost;
  case: EvalCase;
  iteration: number;
  services: Services;
  fakes: LoadedFakes;
  records: RecordCollector;
  signal: AbortSignal;
  suite?: string;
  /** The variant id the model host offers (recorded on the line). */
  variant?: string;
  /** Grades the case's rubrics. */
  rubrics?: RubricJudge;
  /** How the cases' model traffic is served (a case's `models:` block). */
  models?: RunModels;
  /** The simulated user of a conversation case's trial (the case's scripted `turns` when not given). */
  userFor?: (trial: AgentTrial) => UserSimulator;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** The fields every line of a case carries, so a report can be rendered from the file alone. */
export function caseFields(c: EvalCase): Pick<TrialLine, "iterations" | "accuracyThreshold" | "minScore" | "tags"> {
  return {
    iterations: c.iterations ?? 1,
    accuracyThreshold: c.accuracyThreshold ?? 1,
    ...(c.minScore === undefined ? {} : { minScore: c.minScore }),
    // The viewer filters a run by them.
    ...(c.tags?.length ? { tags: [...c.tags] } : {}),
  };
}

/** The line's score fields and judge spend, from the judge's verdict. */
function scoreFields(verdict: Verdict): Pick<TrialLine, "score" | "scoring" | "judge"> {
  const { score, ...scoring } = verdict.score;
  return { ...(score === undefined ? {} : { score }), scoring, ...(verdict.judge ? { judge: verdict.judge } : {}) };
}

/**
 * Runs and judges one trial. Throws only a FatalRunError (the run must stop); every other
 * failure is the trial's line.
 *
 * @example const line = await runTrial({ host: scriptHost(), case, iteration: 0, services, fakes, records, signal });
 */
export async function runTrial(input: TrialInput): Promise<TrialLine> {
  const { host, case: c, iteration } = input;
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const base = {
    case: c.id,
    iteration,
    model: host.label,
    ...caseFields(c),
    ...(input.suite ? { suite: input.suite } : {}),
    ...(input.variant ? { variant: input.variant } : {}),
    startedAt,
  };
  // A secret in its URLs: the agent can reach its own session and no other, whatever ids it
  // guesses; and of the fakes, only those its case names.
  const session = await input.services.createSession({
    scenario: c.scenario,
    clock: c.clock,
    seed: iteration,
    secret: true,
    ...(c.fakes ? { fakes: c.fakes } : {}),
  });
  // The root of the trial's trace: the host continues it into its model requests and tool calls.
  const span = trialSpan({ case: c.id, iteration, host: host.label, suite: input.suite, variant: input.variant });
  const traced = span.traceId === "" ? {} : { traceparent: span.traceparent };
  // Its model, when its case asks: served at the session's secret address, so no other trial reads its traffic.
  const models = input.models && trialModels(input.models, c, iteration, session, input.services);
  let outcome: AgentOutcome;
  let talk: (Conversation & { by: string }) | undefined;
  try {
    const trial: AgentTrial = { case: c, iteration, session, fakes: input.fakes, signal: input.signal, ...traced, ...(models ? { models: models.urls } : {}) };
    if (isConversation(c)) {
      const user = input.userFor?.(trial) ?? scriptedUser(trial);
      talk = { ...(await runConversation({ host, trial, user, recorded: () => input.records.peek(session.id) })), by: user.label };
      outcome = talk.outcome;
    } else outcome = await host.run(trial);
  } catch (error) {
    if (error instanceof FatalRunError) {
      endTrialSpan(span, { status: "not_run", reason: error.message, session: session.id });
      models?.settle({ requests: 0, usage: { ...NO_USAGE }, costUsd: 0, outcome: { status: "not_run", reason: error.message } });
      await session.close();
      input.records.take(session.id);
      input.records.takeOutside(session.id);
      throw error;
    }
    // The trial is not run, but its record stays on its line: what the agent did is evidence.
    outcome = {
      requests: 0,
      usage: { ...NO_USAGE },
      costUsd: 0,
      outcome: { status: "not_run", reason: (error as Error).message.replace(/^\[eval-simulate\] /, "") },
    };
  }
  if (models) outcome = models.settle(outcome);
  // The answer is cut as the command host cuts output (1 MiB), and judged as cut.
  const capped = outcome.answer === undefined ? undefined : capAnswer(outcome.answer);
  if (capped) outcome = { ...outcome, answer: capped.answer };
  const closed = await session.close();
  const record = input.records.take(session.id);
  const outside = input.records.takeOutside(session.id);
  const { details: _details, ...bad } = badCalls(record, outside);
  const stored = talk ? capTranscript(talk.transcript) : undefined;
  const conversation: Partial<TrialLine> = talk
    ? {
        transcript: stored!.transcript,
        ...(stored!.cut ? { transcriptCut: stored!.cut } : {}),
        turns: talk.turns,
        user: { model: talk.by, ...talk.user },
      }
    : {};
  const done = (status: TrialLine["status"], assertions: AssertionResult[], reason?: string, verdict?: Verdict): TrialLine => {
    endTrialSpan(span, { status, score: verdict?.score.score, reason, calls: closed.calls, session: session.id });
    return line(status, assertions, reason, verdict);
  };
  const line = (status: TrialLine["status"], assertions: AssertionResult[], reason?: string, verdict?: Verdict): TrialLine => ({
    ...base,
    status,
    ...(reason === undefined ? {} : { reason }),
    assertions,
    ...(verdict ? scoreFields(verdict) : {}),
    calls: closed.calls,
    badCalls: bad,
    ...(outside.count > 0 ? { outside: [...outside.first] } : {}),
    requests: outcome.requests,
    usage: outcome.usage,
    costUsd: outcome.costUsd,
    durationMs: round(performance.now() - started),
    endedAt: new Date().toISOString(),
    ...(outcome.answer === undefined ? {} : { answer: outcome.answer }),
    ...(capped?.bytes === undefined ? {} : { answerBytes: capped.bytes }),
    session: { id: session.id, ...capRecord(record) },
    ...conversation,
    ...(span.traceId === "" ? {} : { traceId: span.traceId }),
  });
  if (outcome.outcome?.status === "not_run") return done("not_run", [], outcome.outcome.reason);
  let verdict;
  try {
    verdict = await judgeRun({
      fakes: input.fakes,
      case: c,
      run: {
        initial: closed.initial as StatesByFake,
        final: closed.states as StatesByFake,
        calls: record,
        history: true,
        ...(outcome.answer === undefined ? {} : { answer: outcome.answer }),
        ...(talk ? { transcript: talk.transcript } : outcome.transcript === undefined ? {} : { transcript: outcome.transcript }),
        source: `session ${session.id}`,
      },
      ...(input.rubrics ? { rubrics: input.rubrics } : {}),
    });
  } catch (error) {
    return done("not_evaluated", [], `the judge could not run: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`);
  }
  if (outcome.outcome?.status === "fail") {
    const reason = outcome.outcome.reason;
    return done("fail", [{ assertion: "run: agent", kind: "run", passed: false, status: "failed", message: reason }, ...verdict.results], reason, verdict);
  }
  // Only rubrics no judge could grade are missing: skipped as a keyless model case is, and tried again on resume.
  if (verdict.verdict === "skipped")
    return done("skipped", verdict.results, `rubric not judged: ${verdict.results.find((r) => r.unjudged)?.message ?? "no judgment"}`, verdict);
  return done(verdict.verdict, verdict.results, undefined, verdict);
}
