// The weather fake's own tests, run by node:test (`node --test examples/*/tests/*.test.js`): a
// few behaviours only this Recipe knows, recorded to responses.jsonl, then the checks every
// Recipe keeps (checkRecipeFakes), which replay that record and hold it to
// mcp/weather/observed.json. fakes.vitest.ts is the same file for vitest.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadFakes } from "eval-simulate";
import { checkRecipeFakes } from "eval-simulate/checks";
import { call, callTool, recording, withFakes } from "eval-simulate/testing";

const MANIFEST = fileURLToPath(new URL("../fakes.yaml", import.meta.url));
const RECORD = fileURLToPath(new URL("./responses.jsonl", import.meta.url));
const CLOCK = "2026-10-01T09:00:00.000Z";
const options = { clock: CLOCK, record: RECORD };

// node:test on Node 20 has no global setup: the one file that records empties it first and
// sorts it last.
const { globalSetup, globalTeardown } = recording(RECORD);
before(globalSetup);
after(globalTeardown);

const loaded = loadFakes(MANIFEST, { clock: CLOCK });

test("a forecast for an unknown station is refused", async () => {
  const { fakes, world } = await loaded;
  await withFakes(
    fakes,
    world,
    "storm-front",
    async ({ weather }) => {
      await assert.rejects(call(weather, "get-forecast", { station_id: "ZZZZ" }), { message: /^Unknown station ZZZZ\. Call list-stations/ });
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
      const { value } = await callTool(weather, "get-forecast", { station_id: "ksea", days: 2, units: "imperial" });
      assert.equal(value.station_id, "KSEA");
      assert.equal(value.units.temperature, "°F");
      assert.deepEqual(
        value.days.map((day) => [day.date, day.high]),
        [
          ["2026-10-01", 55.4],
          ["2026-10-02", 53.6],
        ],
      );
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
      const { value } = await callTool(weather, "list-stations", { state: "WA" });
      assert.deepEqual(
        value.stations.map((station) => station.id),
        ["KSEA", "KBLI"],
      );
      const current = await callTool(weather, "get-current-conditions", { station_id: "KBLI" });
      assert.equal(current.value.description, "Rain");
    },
    options,
  );
});

checkRecipeFakes({ test, manifest: MANIFEST, clock: CLOCK, record: RECORD });
