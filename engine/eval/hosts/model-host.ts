/**
 * The model host: the case's prompt to a model in-process (the AI SDK, loaded on demand), the
 * session's MCP tools exactly as served, each request retried on transient errors and charged to
 * the run's budget. Requests that keep failing (each within its time limits) and a trial past its
 * `timeoutMs` make the trial "not run"; an answer that cannot be taken (tool arguments nested
 * past every limit) fails it; a fatal error (a bad key, billing, an unknown model) stops the
 * whole run.
 */
import type { LanguageModel } from "ai";
import type { Variant } from "../../judge/selection/index.js";
import { type AgentHost, type AgentOutcome, FatalRunError } from "./agent-host.js";
import { languageModel, MissingPeerError } from "../models/index.js";
import { runModelAgent, sampleWithModel } from "../models/index.js";
import { answerWith, answererCapabilities, type ClientAnswerer, scriptedAnswers } from "./client-answers.js";
import { trialAnswerer } from "./user-answers.js";
import { ModelOutputError } from "../models/index.js";
import { parseModel } from "../models/index.js";
import { ModelRequestError, type RetryOptions } from "../models/index.js";
import type { SpendLedger } from "../models/index.js";
import type { RequestGate, RequestLimits } from "../models/index.js";

/** A case's `host: { type: model }` block. */
export interface ModelHostConfig extends RequestLimits {
  model: string;
  baseURL?: string;
  temperature?: number;
  maxTokens?: number;
  /** Stop the trial after this long (10 minutes by default): it is not run. */
  timeoutMs?: number;
}

/** A trial's wall limit when the case gives none, as the command host's. */
const TRIAL_TIMEOUT_MS = 600_000;

/**
 * A host running `config.model`; the provider's model is made once and shared by its trials.
 *
 * @example const host = modelHost({ model: "anthropic:claude-sonnet-4-5" }, { env: process.env, ledger });
 */
export function modelHost(
  config: ModelHostConfig,
  context: { env: NodeJS.ProcessEnv; ledger: SpendLedger; retry?: RetryOptions; variant?: Variant; gate?: RequestGate },
): AgentHost {
  const spec = parseModel(config.model, config.baseURL);
  const timeoutMs = config.timeoutMs ?? TRIAL_TIMEOUT_MS;
  const limits = { requestTimeoutMs: config.requestTimeoutMs, idleTimeoutMs: config.idleTimeoutMs };
  let model: Promise<LanguageModel> | undefined;
  // A conversation's `client:` answers are one queue across its turns: kept by its session (the same every turn).
  const scriptedBySession = new WeakMap<object, ClientAnswerer>();
  return {
    label: spec.id,
    async run(trial): Promise<AgentOutcome> {
      const c = trial.case;
      const budget = context.ledger.forModel(spec.id);
      const spent = (outcome?: AgentOutcome["outcome"]): AgentOutcome => ({
        requests: 0,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: budget.spentUsd,
        ...(outcome ? { outcome } : {}),
      });
      if (c.prompt === undefined) return spent({ status: "fail", reason: `case ${c.id} has no prompt to send the model` });
      if (!context.ledger.allows())
        return spent({
          status: "not_run",
          reason:
            trial.turn && trial.turn.number > 1 ? `the budget was spent before turn ${trial.turn.number}` : "the budget was spent before this trial started",
        });
      // The trial's own signal: the run's, and the wall limit's.
      const wall = new AbortController();
      const onAbort = () => wall.abort(trial.signal.reason);
      trial.signal.addEventListener("abort", onAbort, { once: true });
      if (trial.signal.aborted) onAbort();
      let timedOut = false;
      const timer = setTimeout(() => ((timedOut = true), wall.abort(new Error(`the trial did not finish within ${timeoutMs} ms`))), timeoutMs);
      try {
        model ??= languageModel(spec, context.env, { ...context.retry }, limits, context.gate);
        const agentModel = await model;
        // The fakes' questions: elicitation by the case's `client:` or the conversation's model user;
        // sampling by `client.sampling` when scripted, else by the agent's own model, on its bill.
        const sampled = { requests: 0, inputTokens: 0, outputTokens: 0 };
        let queued = c.client ? scriptedBySession.get(trial.session) : undefined;
        if (c.client && !queued) scriptedBySession.set(trial.session, (queued = scriptedAnswers(c.client)));
        const scripted = c.client?.sampling?.length ? queued : undefined;
        const elicit = (queued ?? trialAnswerer(trial))?.elicit;
        const answerer: ClientAnswerer = {
          ...(elicit && { elicit }),
          sample:
            scripted?.sample ??
            (async (question, signal) => {
              sampled.requests++;
              const reply = await sampleWithModel(agentModel, question.params, { budget, signal, temperature: config.temperature });
              sampled.inputTokens += reply.usage.inputTokens;
              sampled.outputTokens += reply.usage.outputTokens;
              return reply.text;
            }),
        };
        const run = await runModelAgent({
          clientSetup: { capabilities: answererCapabilities(answerer), setup: (client, server) => answerWith(client, server, answerer, wall.signal) },
          model: agentModel,
          prompt: c.prompt,
          system: c.system,
          servers: trial.session.mcpServers(),
          maxSteps: c.maxSteps ?? 10,
          temperature: config.temperature ?? 0,
          maxTokens: config.maxTokens,
          budget,
          signal: wall.signal,
          ...(context.variant ? { variant: context.variant } : {}),
          ...(Array.isArray(trial.turn?.carry) ? { history: trial.turn.carry } : {}),
          ...(trial.traceparent ? { traceparent: trial.traceparent } : {}),
        });
        const outcome: AgentOutcome = {
          answer: run.finalText,
          transcript: run.transcript,
          requests: run.requests + sampled.requests,
          usage: { inputTokens: run.usage.inputTokens + sampled.inputTokens, outputTokens: run.usage.outputTokens + sampled.outputTokens },
          costUsd: budget.spentUsd,
        };
        // The next turn starts from every message so far.
        if (trial.turn) outcome.carry = run.transcript;
        // A loop the budget cut short says nothing about the model: it is not scored.
        if (run.finish === "budget") outcome.outcome = { status: "not_run", reason: "the budget stopped the trial before its next model request" };
        return outcome;
      } catch (error) {
        if (error instanceof MissingPeerError) throw new FatalRunError(error.message, { cause: error });
        // Stopped from outside (the wall limit, the run's abort): what the request then threw says
        // nothing of the provider.
        if (timedOut) return spent({ status: "not_run", reason: `${spec.id}: the trial did not finish within ${timeoutMs} ms (timeoutMs) and was stopped` });
        if (trial.signal.aborted) return spent({ status: "not_run", reason: "the run was interrupted" });
        // What the model answered cannot be taken: its trial fails, judged on what it did.
        const unreadable = [error, (error as { cause?: unknown }).cause, (error as { lastError?: unknown }).lastError].find(
          (e) => e instanceof ModelOutputError,
        );
        if (unreadable) return spent({ status: "fail", reason: `${spec.id}: ${(unreadable as Error).message.replace(/^\[eval-simulate\] /, "")}` });
        const request =
          error instanceof ModelRequestError
            ? error
            : (error as { cause?: unknown }).cause instanceof ModelRequestError
              ? (error as { cause: ModelRequestError }).cause
              : undefined;
        if (request?.classification.kind === "fatal")
          throw new FatalRunError(`[eval-simulate] ${spec.id}: ${request.classification.message} (fatal: the run stops)`, { cause: error });
        if (request)
          return spent({
            status: "not_run",
            reason: `${spec.id}: model requests kept failing (${request.attempts} attempts): ${request.classification.message}`,
          });
        throw error;
      } finally {
        clearTimeout(timer);
        trial.signal.removeEventListener("abort", onAbort);
      }
    },
  };
}
