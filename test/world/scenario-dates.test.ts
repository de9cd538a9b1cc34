import { describe, expect, it } from "vitest";
import { resolveScenarioValues } from "../../engine/author/world/index.js";

const CLOCK = new Date("2026-10-01T12:34:56.789Z");

async function date(value: Record<string, unknown>, clock = CLOCK): Promise<unknown> {
  return resolveScenarioValues(value, clock);
}

describe("$date", () => {
  it("shifts the clock by each unit: s m h d w", async () => {
    expect(await date({ $date: "-30s" })).toBe("2026-10-01T12:34:26.789Z");
    expect(await date({ $date: "-5m" })).toBe("2026-10-01T12:29:56.789Z");
    expect(await date({ $date: "-2h" })).toBe("2026-10-01T10:34:56.789Z");
    expect(await date({ $date: "-3d" })).toBe("2026-09-28T12:34:56.789Z");
    expect(await date({ $date: "-1w" })).toBe("2026-09-24T12:34:56.789Z");
  });

  it("reads a missing sign as forwards, + as forwards and - as back", async () => {
    expect(await date({ $date: "2d" })).toBe("2026-10-03T12:34:56.789Z");
    expect(await date({ $date: "+2d" })).toBe("2026-10-03T12:34:56.789Z");
    expect(await date({ $date: "-2d" })).toBe("2026-09-29T12:34:56.789Z");
  });

  it('reads "0d" and "now" as the clock itself', async () => {
    expect(await date({ $date: "0d" })).toBe(CLOCK.toISOString());
    expect(await date({ $date: "now" })).toBe(CLOCK.toISOString());
  });

  it("sets the UTC time of day with at, after the shift", async () => {
    expect(await date({ $date: "-3d", at: "09:00" })).toBe("2026-09-28T09:00:00.000Z");
    expect(await date({ $date: "+1d", at: "23:59:30" })).toBe("2026-10-02T23:59:30.000Z");
    expect(await date({ $date: "now", at: "7:05" })).toBe("2026-10-01T07:05:00.000Z");
  });

  it("crosses month and year boundaries", async () => {
    const newYear = new Date("2027-01-01T00:30:00Z");
    expect(await date({ $date: "-1h" }, newYear)).toBe("2026-12-31T23:30:00.000Z");
    expect(await date({ $date: "-1d", at: "09:00" }, new Date("2026-03-01T08:00:00Z"))).toBe("2026-02-28T09:00:00.000Z");
    expect(await date({ $date: "+31d" }, new Date("2026-01-31T00:00:00Z"))).toBe("2026-03-03T00:00:00.000Z");
  });

  it("lands on February 29 in a leap year and skips it otherwise", async () => {
    expect(await date({ $date: "-1d" }, new Date("2028-03-01T10:00:00Z"))).toBe("2028-02-29T10:00:00.000Z");
    expect(await date({ $date: "+1d" }, new Date("2028-02-28T10:00:00Z"))).toBe("2028-02-29T10:00:00.000Z");
    expect(await date({ $date: "+1d" }, new Date("2027-02-28T10:00:00Z"))).toBe("2027-03-01T10:00:00.000Z");
  });

  it("refuses a shift that is not sign, number, unit, with a hint for months and years", async () => {
    await expect(date({ $date: "-3x" })).rejects.toThrow(/\$date "-3x" is not a shift from the clock like "-3d"/);
    await expect(date({ $date: "yesterday" })).rejects.toThrow(/units s m h d w/);
    await expect(date({ $date: "-1M" })).rejects.toThrow(/months and years vary in length/);
    await expect(date({ $date: -3 })).rejects.toThrow(/\$date must be a shift/);
  });

  it("refuses a bad at, and hints at quoting when YAML made it a number", async () => {
    await expect(date({ $date: "0d", at: "25:00" })).rejects.toThrow(/at "25:00" is not a UTC time of day/);
    await expect(date({ $date: "0d", at: "09:60" })).rejects.toThrow(/at "09:60"/);
    await expect(date({ $date: "0d", at: 540 })).rejects.toThrow(/quote it in YAML/);
  });

  it("refuses a shift past what a Date can hold", async () => {
    await expect(date({ $date: "+999999999w" })).rejects.toThrow(/outside the dates JavaScript can represent/);
  });
});
