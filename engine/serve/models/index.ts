/**
 * engine/serve/models/: model endpoints on the fakes' port, speaking the providers' own wire
 * formats so an agent's SDK needs only a base URL. Which API a path below `/models/` names, and
 * errors in each provider's shape (`model-calls.ts`); the sessions that answer model requests and
 * their base URLs (`model-endpoints.ts`: a responder per session, handed in by the eval runner);
 * server-sent events framed as the providers frame them (`sse.ts`); and a scripted answer (text,
 * tool calls) as OpenAI's chat completion or response, or Anthropic's message, whole or streamed
 * (`scripted-answers.ts`). Recording and replaying are the eval layer's (engine/eval/cassettes/).
 *
 * Other folders import this folder through this file only.
 */
export { MODEL_PROVIDERS, modelError, modelRoute } from "./model-calls.js";
export type { ModelApi, ModelCall, ModelProvider, ModelResponder } from "./model-calls.js";
export { ModelEndpoints, modelBaseUrls } from "./model-endpoints.js";
export type { ModelBaseUrls } from "./model-endpoints.js";
export { scriptedAnswer } from "./scripted-answers.js";
export type { AnswerContext, ScriptedAnswer } from "./scripted-answers.js";
export { SSE_HEADERS, sseResponse, sseText } from "./sse.js";
export type { SseEvent } from "./sse.js";
