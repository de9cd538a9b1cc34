/** The door of engine/eval/models/: what other folders may import from it. */
export { missingKeys, skipMessage } from "./keyless.js";
export { MissingPeerError, languageModel, loadAi } from "./language-model.js";
export { runModelAgent } from "./model-agent.js";
export { ModelOutputError } from "./model-output.js";
export { missingKey, parseModel } from "./model-spec.js";
export { PRICES, UnknownPriceError } from "./pricing.js";
export type { Price, Usage } from "./pricing.js";
export { ModelRequestError } from "./retry.js";
export type { RetryOptions } from "./retry.js";
export { SpendLedger, budgetLimit } from "./run-budget.js";
export type { RequestLimits } from "./timed-fetch.js";
export { selectTools } from "./tool-selection.js";
