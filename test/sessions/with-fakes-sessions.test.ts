import { describe, expect, it } from "vitest";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import { startServices } from "../../engine/serve/host/start-services.js";
import { call, callTool, withFakes } from "../../engine/entries/testing.js";
import { CLOCK, MANIFEST } from "../fixtures/checks-valid/record.js";

describe("withFakes on running services", () => {
  it("gives each call a fresh session of them: its own world, contract checks kept, the host's world untouched", async () => {
    const { fakes, world } = await loadFakes(MANIFEST, { clock: CLOCK });
    const services = await startServices(fakes, { world, clock: CLOCK, warn: () => {} });
    try {
      const made = await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          withFakes(
            fakes,
            world,
            "empty",
            async ({ notes: client, states }) => {
              expect(await call(client, "create-note", { title: `Trial ${k}` })).toBe(`Note created! {"id":"note-1","title":"Trial ${k}"}`);
              // The contract is known, so callTool reads the answer by it.
              expect((await callTool(client, "list-notes", {})).isError).toBe(false);
              return states.notes.notes;
            },
            { services },
          ),
        ),
      );
      expect(made).toEqual(Array.from({ length: 10 }, (_, k) => [{ id: "note-1", title: `Trial ${k}` }]));
      expect(services.states).toEqual(services.initial);
      expect(services.calls()).toEqual([]);
      // Each session was freed when its call ended.
      expect((await (await fetch(`${services.origin}/sessions`)).json()).sessions).toEqual([]);
      await expect(withFakes(fakes, world, "empty", () => undefined, { services, record: "calls.jsonl" })).rejects.toThrow(/start them with `record`/);
    } finally {
      await services.close();
    }
  });
});
