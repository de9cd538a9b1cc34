/**
 * engine/eval/models/: talking to a model. `provider:model` specs and key variables
 * (`model-spec.ts`, `keyless.ts`: models without a key are skipped, naming the variable); the AI
 * SDK and its provider packages loaded on demand, optional peers (`language-model.ts`); each
 * request retried on transient errors with Retry-After honoured, and classified (`retry.ts`,
 * `provider-errors.ts`); the fetch the providers get, within `requestTimeoutMs` and never silent
 * for `idleTimeoutMs` (`timed-fetch.ts`); prices and one spending limit across a run (`pricing.ts`,
 * `run-budget.ts`); the agent loop over a session's MCP tools (`model-agent.ts`, `mcp-tools.ts`), a
 * fake's sampling request answered by the agent's model (`model-sampling.ts`);
 * one forced turn for tool selection (`tool-selection.ts`); and a model answer the runner cannot
 * take, which fails the trial (`model-output.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { missingKeys, skipMessage } from "./keyless.js";
export { MissingPeerError, languageModel, loadAi } from "./language-model.js";
export { runModelAgent } from "./model-agent.js";
export { callServedTool, connectTools } from "./mcp-tools.js";
export type { ClientSetup, McpServerRef, ServedTool } from "./mcp-tools.js";
export { type SampledReply, sampleWithModel } from "./model-sampling.js";
export { ModelOutputError } from "./model-output.js";
export { missingKey, parseModel } from "./model-spec.js";
export { PRICES, UnknownPriceError } from "./pricing.js";
export type { Price, Usage } from "./pricing.js";
export type { LimitStatus, RequestOutcome } from "./adaptive-limit.js";
export { ProviderLimits, gatedRequest, limitsText, parseProviderLimits } from "./request-gate.js";
export type { Permit, RequestGate } from "./request-gate.js";
export { ModelRequestError } from "./retry.js";
export type { RetryOptions } from "./retry.js";
export { SpendLedger, budgetLimit } from "./run-budget.js";
export type { RequestLimits } from "./timed-fetch.js";
export { selectTools } from "./tool-selection.js";
