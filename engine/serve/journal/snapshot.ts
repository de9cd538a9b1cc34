/** Values past this many characters are cut in the journal, and flagged. */
export const SNAPSHOT_LIMIT = 16_000;

/** A bounded copy of a value for the journal: its text, how to read it, and whether it was cut. */
export interface Snapshot {
  text: string;
  format: "json" | "text";
  truncated: boolean;
}

/**
 * A bounded snapshot of a value: strings as text, anything else as JSON, cut past the limit.
 * Read `format` and `truncated` before parsing `text`.
 *
 * @example snapshot({ a: 1 }) // { text: '{"a":1}', format: "json", truncated: false }
 */
export function snapshot(value: unknown, limit = SNAPSHOT_LIMIT): Snapshot {
  const format = typeof value === "string" ? "text" : "json";
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
  } catch {
    text = String(value);
  }
  return text.length > limit ? { text: text.slice(0, limit), format, truncated: true } : { text, format, truncated: false };
}
