import { describe, expect, it } from "vitest";
import { parseClock } from "../../engine/author/world/index.js";

describe("parseClock", () => {
  it('reads undefined and "now" as the current time', () => {
    const before = Date.now();
    const times = [parseClock(), parseClock("now"), parseClock(" NOW ")].map((d) => d.getTime());
    for (const time of times) expect(time).toBeGreaterThanOrEqual(before);
    for (const time of times) expect(time).toBeLessThanOrEqual(Date.now());
  });

  it("reads ISO 8601 date-times with Z, offsets and fractions", () => {
    expect(parseClock("2026-10-01T09:00:00Z").toISOString()).toBe("2026-10-01T09:00:00.000Z");
    expect(parseClock("2026-10-01T09:00:00.123Z").toISOString()).toBe("2026-10-01T09:00:00.123Z");
    expect(parseClock("2026-10-01T11:00:00+02:00").toISOString()).toBe("2026-10-01T09:00:00.000Z");
    expect(parseClock("2026-10-01T04:30-0430").toISOString()).toBe("2026-10-01T09:00:00.000Z");
  });

  it("reads a date alone, and a time without an offset, as UTC whatever the machine's zone", () => {
    expect(parseClock("2026-10-01").toISOString()).toBe("2026-10-01T00:00:00.000Z");
    expect(parseClock("2026-10-01T09:00").toISOString()).toBe("2026-10-01T09:00:00.000Z");
  });

  it("reads epoch milliseconds as a number or a string of digits", () => {
    expect(parseClock(1790845200000).toISOString()).toBe("2026-10-01T09:00:00.000Z");
    expect(parseClock("1790845200000").toISOString()).toBe("2026-10-01T09:00:00.000Z");
  });

  it("copies a Date rather than sharing it", () => {
    const date = new Date("2026-10-01T09:00:00Z");
    const clock = parseClock(date);
    expect(clock).not.toBe(date);
    expect(clock.getTime()).toBe(date.getTime());
  });

  it("refuses impossible calendar dates that Date.parse would roll over", () => {
    expect(() => parseClock("2026-02-30")).toThrow(/clock "2026-02-30" is not/);
    expect(() => parseClock("2026-02-29T00:00:00Z")).toThrow();
    expect(parseClock("2028-02-29T00:00:00Z").toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(() => parseClock("2026-10-01T24:00:00Z")).toThrow();
  });

  it("refuses junk with an [eval-simulate] error naming the accepted forms", () => {
    for (const junk of ["yesterday", "", "2026-10-01T09:00:00Zjunk", "10/01/2026"]) {
      expect(() => parseClock(junk)).toThrow(/^\[eval-simulate\] clock .* is not "now", an ISO 8601 date-time/);
    }
    expect(() => parseClock(Number.NaN)).toThrow(/E_BAD_CLOCK|clock/);
    expect(() => parseClock(new Date("nope"))).toThrow(/an invalid Date/);
    expect(() => parseClock(9e15)).toThrow();
  });

  it("gives errors the stable code E_BAD_CLOCK", () => {
    expect(() => parseClock("soon")).toThrow(expect.objectContaining({ code: "E_BAD_CLOCK" }));
  });
});
