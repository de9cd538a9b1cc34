/**
 * The model host: the case's prompt to a model in-process (the AI SDK, loaded on demand), the
 * session's MCP tools exactly as served, each request retried on transient errors and charged to
 * the run's budget. Requests that keep failing make the trial "not run"; a fatal error (a bad
 * key, billing, an unknown model) stops the whole run.
 */
import type { LanguageModel } from "ai";
import type { Variant } from "../selection/variant.js";
import { type AgentHost, type AgentOutcome, FatalRunError } from "./agent-host.js";
import { languageModel, MissingPeerError } from "./language-model.js";
import { runModelAgent } from "./model-agent.js";
import { parseModel } from "./model-spec.js";
import { ModelRequestError, type RetryOptions } from "./retry.js";
import type { SpendLedger } from "./run-budget.js";

/** A case's `host: { type: model }` block. */
export interface ModelHostConfig {
  model: string;
  baseURL?: string;
  temperature?: number;
  maxTokens?: number;
}

/**
 * A host running `config.model`; the provider's model is made once and shared by its trials.
 *
 * @example const host = modelHost({ model: "anthropic:claude-sonnet-4-5" }, { env: process.env, ledger });
 */
export function modelHost(config: ModelHostConfig, context: { env: NodeJS.ProcessEnv; ledger: SpendLedger; retry?: RetryOptions; variant?: Variant }): AgentHost {
  const spec = parseModel(config.model, config.baseURL);
  let model: Promise<LanguageModel> | undefined;
  return {
    label: spec.id,
    async run(trial): Promise<AgentOutcome> {
      const c = trial.case;
      const budget = context.ledger.forModel(spec.id);
      const spent = (outcome?: AgentOutcome["outcome"]): AgentOutcome => ({ requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: budget.spentUsd, ...(outcome ? { outcome } : {}) });
      if (c.prompt === undefined) return spent({ status: "fail", reason: `case ${c.id} has no prompt to send the model` });
      if (!context.ledger.allows()) return spent({ status: "not_run", reason: "the budget was spent before this trial started" });
      try {
        model ??= languageModel(spec, context.env, { ...context.retry, signal: trial.signal });
        const run = await runModelAgent({
          model: await model,
          prompt: c.prompt,
          system: c.system,
          servers: trial.session.mcpServers(),
          maxSteps: c.maxSteps ?? 10,
          temperature: config.temperature ?? 0,
          maxTokens: config.maxTokens,
          budget,
          signal: trial.signal,
          ...(context.variant ? { variant: context.variant } : {}),
        });
        const outcome: AgentOutcome = { answer: run.finalText, requests: run.requests, usage: run.usage, costUsd: budget.spentUsd };
        // A loop the budget cut short says nothing about the model: it is not scored.
        if (run.finish === "budget") outcome.outcome = { status: "not_run", reason: "the budget stopped the trial before its next model request" };
        return outcome;
      } catch (error) {
        if (error instanceof MissingPeerError) throw new FatalRunError(error.message, { cause: error });
        const request = error instanceof ModelRequestError ? error : (error as { cause?: unknown }).cause instanceof ModelRequestError ? ((error as { cause: ModelRequestError }).cause) : undefined;
        if (request?.classification.kind === "fatal") throw new FatalRunError(`[eval-simulate] ${spec.id}: ${request.classification.message} (fatal: the run stops)`, { cause: error });
        if (request) return spent({ status: "not_run", reason: `${spec.id}: model requests kept failing (${request.attempts} attempts): ${request.classification.message}` });
        throw error;
      }
    },
  };
}
