/** How numbers read on the page: a missing value is a dash, never NaN. */

const missing = (value: number | null | undefined): value is null | undefined => value === null || value === undefined || Number.isNaN(value);

export const percent = (value: number | null | undefined) => (missing(value) ? "–" : `${Math.round(value * 1000) / 10}%`);
export const fixed = (value: number | null | undefined, digits = 2) => (missing(value) ? "–" : value.toFixed(digits));
export const dollars = (value: number | null | undefined) =>
  missing(value) ? "–" : value < 0.01 && value > 0 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
export const seconds = (ms: number | null | undefined) => (missing(ms) ? "–" : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
export const tokens = (usage: { inputTokens: number; outputTokens: number } | undefined) =>
  usage === undefined ? "–" : `${usage.inputTokens.toLocaleString("en")} / ${usage.outputTokens.toLocaleString("en")}`;
export const signed = (value: number | null | undefined, unit = "") => (missing(value) ? "–" : `${value > 0 ? "+" : ""}${(value * 100).toFixed(1)}${unit}`);

/** A value as readable JSON text (strings as they are). */
export function jsonText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
