import { WorldError } from "./world-error.js";

/**
 * ISO 8601 calendar date, optionally with a time and an offset. Parsed by hand because V8's
 * Date.parse rolls impossible dates over (2026-02-30 becomes March 2) and reads a time without
 * an offset in the machine's time zone.
 */
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

const EXAMPLE = `"now", an ISO 8601 date-time such as "2026-10-01T09:00:00Z", or epoch milliseconds`;

/**
 * The clock a world is built at. `undefined` and "now" are the current time; a string is an ISO
 * 8601 date or date-time (a time without an offset is UTC, so a run reads the same on every
 * machine) or epoch milliseconds; a number is epoch milliseconds; a Date is copied.
 *
 * @example parseClock("2026-10-01T09:00:00Z").toISOString() // "2026-10-01T09:00:00.000Z"
 */
export function parseClock(value?: string | number | Date): Date {
  if (value === undefined) return new Date();
  if (value instanceof Date) return checked(new Date(value.getTime()), value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw badClock(value);
    return checked(new Date(Math.trunc(value)), value);
  }
  if (typeof value !== "string") throw badClock(value);
  const text = value.trim();
  if (text.toLowerCase() === "now") return new Date();
  if (/^-?\d+$/.test(text)) return checked(new Date(Number(text)), value);
  const ms = parseIso(text);
  if (ms === undefined) throw badClock(value);
  return checked(new Date(ms), value);
}

/** Epoch milliseconds of a strict ISO 8601 string, or undefined when it is not one. */
function parseIso(text: string): number | undefined {
  const match = ISO_8601.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", fraction = "", , sign, oh = "0", om = "0"] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  // Digits past milliseconds are dropped: a Date holds milliseconds.
  const ms = Number(fraction.padEnd(3, "0").slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const offset = (sign === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear puts the year back.
  const date = new Date(utc);
  date.setUTCFullYear(year);
  return date.getTime() - offset;
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

function checked(date: Date, original: unknown): Date {
  if (Number.isNaN(date.getTime())) throw badClock(original);
  return date;
}

function badClock(value: unknown): WorldError {
  const shown = value instanceof Date ? "an invalid Date" : (JSON.stringify(value) ?? String(value));
  return new WorldError("E_BAD_CLOCK", `clock ${shown} is not ${EXAMPLE}`);
}
