/** The door of engine/serve/http/: what other folders may import from it. */
export { positiveInteger } from "./env-integer.js";
export { httpLimitsFromEnv } from "./http-limits.js";
export type { HttpLimits } from "./http-limits.js";
export { listen } from "./http-listen.js";
export type { FetchHandler, Listening } from "./http-listen.js";
export { refusalBody } from "./http-refusals.js";
export { rawTargetOf } from "./raw-target.js";
export { sameSecret } from "./secrets.js";
