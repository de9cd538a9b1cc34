// The weather fake's own tests under vitest: the same as fakes.test.js (node:test), so either
// runner keeps the same responses.jsonl.
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
import { checkRecipeFakes } from "eval-simulate/checks";
import { call, callTool, recording, withFakes } from "eval-simulate/testing";
import { afterAll, beforeAll, expect, test } from "vitest";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const CLOCK = "2026-10-01T09:00:00.000Z";
const options = { clock: CLOCK, record: RECORD };

const { globalSetup, globalTeardown } = recording(RECORD);
beforeAll(globalSetup);
afterAll(globalTeardown);

const loaded = loadFakes(MANIFEST, { clock: CLOCK });

type Forecast = { station_id: string; units: { temperature: string }; days: Array<{ date: string; high: number }> };

test("a forecast for an unknown station is refused", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "storm-front",
    async ({ weather }) => {
      await expect(call(weather, "get-forecast", { station_id: "ZZZZ" })).rejects.toThrow(/^Unknown station ZZZZ\. Call list-stations/);
    },
    options,
  );
});

test("a forecast covers the days asked, in the units asked", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "storm-front",
    async ({ weather }) => {
      const forecast = (await callTool(weather, "get-forecast", { station_id: "ksea", days: 2, units: "imperial" })).value as Forecast;
      expect(forecast.station_id).toBe("KSEA");
      expect(forecast.units.temperature).toBe("°F");
      expect(forecast.days.map((day) => [day.date, day.high])).toEqual([
        ["2026-10-01", 55.4],
        ["2026-10-02", 53.6],
      ]);
    },
    options,
  );
});

test("stations are filtered by state, and each reports its current conditions", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "storm-front",
    async ({ weather }) => {
      const { stations } = (await callTool(weather, "list-stations", { state: "WA" })).value as { stations: Array<{ id: string }> };
      expect(stations.map((station) => station.id)).toEqual(["KSEA", "KBLI"]);
      const current = (await callTool(weather, "get-current-conditions", { station_id: "KBLI" })).value as { description: string };
      expect(current.description).toBe("Rain");
    },
    options,
  );
});

checkRecipeFakes({ test, manifest: MANIFEST, clock: CLOCK, record: RECORD });
