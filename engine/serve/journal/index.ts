/**
 * engine/serve/journal/: call evidence. The bounded journal (`journal.ts`), values as snapshots cut
 * past 16,000 characters (`snapshot.ts`), and redaction (`redact.ts`): which names are secrets,
 * read as words (`secret-names.ts`), values shaped like secrets under any name (`secret-shapes.ts`:
 * `sk-`, `ghp_`, `xoxb-`, `AKIA`, PEM private keys, JWTs, `Bearer`, in one linear pass), pairs and
 * URL passwords in free text (`free-text.ts`), and JSON text redacted in place so the evidence
 * keeps the client's bytes (`json-text.ts`).
 *
 * Other folders import this folder through this file only.
 */
export { Journal } from "./journal.js";
export type { JournalEntry, JournalFilter } from "./journal.js";
export { largerThan, redact, redactParams, redactResult, redactText, secretNames } from "./redact.js";
export type { SecretNames } from "./redact.js";
export { SNAPSHOT_LIMIT, snapshot } from "./snapshot.js";
