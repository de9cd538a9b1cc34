import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UnknownScenarioError, worldFromModule, worldFromSpec, type WorldSpec } from "../../engine/author/world/index.js";
import { sharedObjects } from "./shared-objects.js";

const CLOCK = new Date("2026-10-01T12:00:00Z");
const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}/index.ts`, import.meta.url));

describe("worldFromSpec", () => {
  const spec: WorldSpec = {
    fakes: { notes: { entities: { notes: { default: [] } } } },
    scenarios: { quiet: { state: { notes: { notes: [{ id: 1 }] } } }, blocked: { extends: "quiet", default: true } },
  };

  it("lists the scenarios and the default, and builds a scenario or the default", async () => {
    const source = worldFromSpec(spec);
    expect(source.scenarios).toEqual(["quiet", "blocked"]);
    expect(source.defaultScenario).toBe("blocked");
    expect(await source.build(undefined, CLOCK)).toEqual({ notes: { notes: [{ id: 1 }] } });
  });

  it("checks every extends chain when created, not on the first build", () => {
    expect(() => worldFromSpec({ ...spec, scenarios: { a: { extends: "a" } } })).toThrow(/cycle: a → a/);
  });

  it("offers the implicit default scenario when the spec declares none", async () => {
    const source = worldFromSpec({ fakes: spec.fakes, scenarios: {} });
    expect(source.scenarios).toEqual(["default"]);
    expect(await source.build("default", CLOCK)).toEqual({ notes: { notes: [] } });
    await expect(source.build("quiet", CLOCK)).rejects.toThrow('[eval-simulate] unknown scenario "quiet"; known: default');
  });
});

describe("worldFromModule", () => {
  it("loads a TypeScript module with an array of SCENARIOS; the first is the default", async () => {
    const source = await worldFromModule(fixture("world-module-array"));
    expect(source.scenarios).toEqual(["quiet", "busy"]);
    expect(source.defaultScenario).toBe("quiet");
    expect(await source.build(undefined, CLOCK)).toEqual({
      notes: {
        notes: [{ id: "note-1", title: "Kickoff", createdAt: "2026-09-30T12:00:00.000Z" }],
        settings: { theme: "light" },
        mirror: { theme: "light" },
      },
    });
  });

  it("copies the module's world through JSON, so two builds are equal and share nothing", async () => {
    const source = await worldFromModule(fixture("world-module-array"));
    const first = await source.build("busy", CLOCK);
    const second = await source.build("busy", CLOCK);
    expect(second).toEqual(first);
    expect(sharedObjects(first, second)).toEqual([]);
    expect(first.notes.settings).not.toBe(first.notes.mirror);
  });

  it("reads SCENARIOS keyed by name, DEFAULT_SCENARIO and an async world()", async () => {
    const source = await worldFromModule(fixture("world-module-keyed"));
    expect(source.scenarios).toEqual(["quiet", "blocked"]);
    expect(source.defaultScenario).toBe("blocked");
    expect(await source.build(undefined, CLOCK)).toEqual({ notes: { scenario: "blocked", now: "2026-10-01T12:00:00.000Z" } });
  });

  it("refuses an unknown scenario before calling world()", async () => {
    const source = await worldFromModule(fixture("world-module-keyed"));
    const error = await source.build("explode", CLOCK).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownScenarioError);
    expect((error as Error).message).toBe('[eval-simulate] unknown scenario "explode"; known: quiet, blocked');
  });

  it("refuses a module without a world function, or one that does not load", async () => {
    await expect(worldFromModule(fixture("world-module-without-world"))).rejects.toThrow(
      expect.objectContaining({ code: "E_WORLD_MODULE", message: expect.stringMatching(/does not export a function world\(scenario, clock\)/) }),
    );
    await expect(worldFromModule(fixture("no-such-module"))).rejects.toThrow(/E_WORLD_MODULE|could not be loaded/);
  });
});
