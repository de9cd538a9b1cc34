/**
 * engine/serve/stubs/: a scenario's stubs (`stub-set.ts`: match, outcome sequences, use counts) and
 * faults (`fault-set.ts`: seeded latency, HTTP failures on a share of calls).
 *
 * Other folders import this folder through this file only.
 */
export { FaultSet } from "./fault-set.js";
export { StubSet, stubDelay } from "./stub-set.js";
export type { StubUsage } from "./stub-set.js";
