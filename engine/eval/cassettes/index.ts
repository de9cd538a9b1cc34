/**
 * engine/eval/cassettes/: a trial's model traffic recorded, replayed or scripted, so an agent's
 * own code runs offline against the fakes. A request's normalised form, what a recording is
 * matched by (`normalised-request.ts`: secrets redacted, keys sorted, ids, times and tool results
 * ignored as the case says); the diff against the nearest recording (`request-diff.ts`); the
 * cassette beside the evals file (`cassette-file.ts`); the real provider a recording is made from,
 * under a timeout and a size cap (`upstream.ts`); one trial's traffic in its mode and how it
 * settles the trial (`model-traffic.ts`); and the runner's glue, serving it at the trial's secret
 * session address (`trial-models.ts`). The endpoints themselves are engine/serve/models/.
 *
 * Other folders import this folder through this file only.
 */
export { CASSETTE_VERSION, MAX_CASSETTE_BYTES, cassettePath, cassetteText, readCassette, writeCassette } from "./cassette-file.js";
export type { Cassette, Interaction, RecordedResponse } from "./cassette-file.js";
export { openModelTraffic } from "./model-traffic.js";
export type { ModelTraffic, ModelsMode, TrafficInput, TrafficMode } from "./model-traffic.js";
export { normaliseBody, normaliseRequest } from "./normalised-request.js";
export type { IgnoredPart, NormalisedRequest } from "./normalised-request.js";
export { distance, requestDiff } from "./request-diff.js";
export { MAX_ANSWER_BYTES, sendUpstream, upstreamUrl } from "./upstream.js";
export type { UpstreamAnswer } from "./upstream.js";
export { trialModels } from "./trial-models.js";
export type { RunModels, TrialModels } from "./trial-models.js";
