/**
 * engine/serve/http/: the port's HTTP. The node:http adapter (`http-listen.ts`: request to web
 * `Request`, `Response` to socket, write backpressure) and its per-connection queue
 * (`connection-queue.ts`: one request at a time per connection, reading paused past `maxPipelined`,
 * 503 past `maxInFlight`); the limits and their environment variables (`http-limits.ts`,
 * `env-integer.ts`); answers refused before a fake sees them (`http-refusals.ts`: 413, 408, 503,
 * 501); the request target and Host checked as RFC 9112 says (`request-target.ts`) and kept as sent
 * (`raw-target.ts`); waiting on a client without buffering for it or waiting for ever
 * (`response-wait.ts`); and one constant-time comparison for the admin token (`secrets.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { positiveInteger } from "./env-integer.js";
export { httpLimitsFromEnv } from "./http-limits.js";
export type { HttpLimits } from "./http-limits.js";
export { listen } from "./http-listen.js";
export type { FetchHandler, Listening } from "./http-listen.js";
export { refusalBody } from "./http-refusals.js";
export { rawTargetOf } from "./raw-target.js";
export { sameSecret } from "./secrets.js";
