/**
 * The `$date` special value's grammar: a shift from the clock ("-3d", "+2h", "now") and an
 * optional UTC time of day ("09:00", "09:00:30") set after the shift. All arithmetic is UTC, so
 * a day is always 24 hours and a world reads the same in every time zone.
 */

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const SHIFT = /^([+-]?)(\d+)([smhdw])$/;
const TIME_OF_DAY = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** A time of day, UTC. */
export interface TimeOfDay {
  hours: number;
  minutes: number;
  seconds: number;
}

/**
 * The shift in milliseconds, or a message saying what is wrong.
 *
 * @example parseShift("-3d") // { ms: -259200000 }
 */
export function parseShift(text: unknown): { ms: number } | { error: string } {
  const expected = `a shift from the clock like "-3d", "+2h" or "now" (units s m h d w)`;
  if (typeof text !== "string") return { error: `$date must be ${expected}, not ${JSON.stringify(text) ?? typeof text}` };
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === "now") return { ms: 0 };
  const match = SHIFT.exec(trimmed);
  if (!match) {
    // Months and years have no fixed length, so they are left out on purpose; say so.
    const hint = /^[+-]?\d+\s*(M|mo|months?|y|years?)$/.test(trimmed) ? "; months and years vary in length, so write days or weeks" : "";
    return { error: `$date ${JSON.stringify(text)} is not ${expected}${hint}` };
  }
  const [, sign, amount, unit] = match;
  const ms = Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return { ms: sign === "-" ? -ms : ms };
}

/**
 * The time of day of `at`, or a message saying what is wrong.
 *
 * @example parseTimeOfDay("09:00:30") // { time: { hours: 9, minutes: 0, seconds: 30 } }
 */
export function parseTimeOfDay(text: unknown): { time: TimeOfDay } | { error: string } {
  const expected = `a UTC time of day like "09:00" or "09:00:30"`;
  if (typeof text !== "string") {
    // YAML 1.1 reads an unquoted 09:00 as the number 540: the usual cause of a number here.
    const hint = typeof text === "number" ? ' (quote it in YAML: at: "09:00")' : "";
    return { error: `at must be ${expected}, not ${JSON.stringify(text) ?? typeof text}${hint}` };
  }
  const match = TIME_OF_DAY.exec(text.trim());
  const [hours, minutes, seconds] = match ? [match[1], match[2], match[3] ?? "0"].map(Number) : [];
  if (!match || hours > 23 || minutes > 59 || seconds > 59) return { error: `at ${JSON.stringify(text)} is not ${expected}` };
  return { time: { hours, minutes, seconds } };
}

/**
 * The clock shifted, then set to the time of day when one is given, as ISO 8601; or a message
 * when the result falls outside what a Date can hold.
 *
 * @example shiftedDate(new Date("2026-10-01T12:34:56Z"), -259200000, { hours: 9, minutes: 0, seconds: 0 })
 * // { iso: "2026-09-28T09:00:00.000Z" }
 */
export function shiftedDate(clock: Date, shiftMs: number, at?: TimeOfDay): { iso: string } | { error: string } {
  const date = new Date(clock.getTime() + shiftMs);
  if (at) date.setUTCHours(at.hours, at.minutes, at.seconds, 0);
  if (Number.isNaN(date.getTime())) return { error: "$date falls outside the dates JavaScript can represent" };
  return { iso: date.toISOString() };
}
