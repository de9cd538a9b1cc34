/**
 * Calls files, as replay and observe read them: the reader lives with the checks, which read the
 * same files for `check --recording`, and is this folder's through here.
 */
export { readCalls } from "../checks/index.js";
export type { ReplayCall } from "../checks/index.js";
