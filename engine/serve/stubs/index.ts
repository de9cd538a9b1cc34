/** The door of engine/serve/stubs/: what other folders may import from it. */
export { FaultSet } from "./fault-set.js";
export { StubSet, stubDelay } from "./stub-set.js";
export type { StubUsage } from "./stub-set.js";
