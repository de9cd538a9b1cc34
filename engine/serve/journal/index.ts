/** The door of engine/serve/journal/: what other folders may import from it. */
export { Journal } from "./journal.js";
export type { JournalEntry, JournalFilter } from "./journal.js";
export { largerThan, redact, redactParams, redactResult, redactText, secretNames } from "./redact.js";
export type { SecretNames } from "./redact.js";
export { SNAPSHOT_LIMIT, snapshot } from "./snapshot.js";
