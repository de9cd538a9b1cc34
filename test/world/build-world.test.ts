import { describe, expect, it } from "vitest";
import { buildWorld, defaultScenario, labelId, scenarioChain, UnknownScenarioError, type WorldSpec } from "../../engine/author/world/index.js";
import { sharedObjects } from "./shared-objects.js";

const CLOCK = new Date("2026-10-01T12:00:00Z");

const fakes: WorldSpec["fakes"] = {
  notes: { entities: { notes: { default: [] }, settings: { default: { theme: "light", limits: { max: 10, min: 1 } } }, cursor: {} } },
  mail: { entities: { inbox: { default: [{ id: "m0" }] } } },
};

describe("scenarioChain", () => {
  const spec: WorldSpec = {
    fakes,
    scenarios: { base: {}, middle: { extends: "base" }, top: { extends: "middle" } },
  };

  it("lists the chain root first", () => {
    expect(scenarioChain(spec, "top")).toEqual(["base", "middle", "top"]);
    expect(scenarioChain(spec, "base")).toEqual(["base"]);
  });

  it("names the cycle when scenarios extend each other", () => {
    const cyclic: WorldSpec = { fakes, scenarios: { a: { extends: "b" }, b: { extends: "a" }, c: { extends: "a" }, d: { extends: "d" } } };
    expect(() => scenarioChain(cyclic, "a")).toThrow("[eval-simulate] scenarios extend each other in a cycle: a → b → a");
    expect(() => scenarioChain(cyclic, "c")).toThrow(/in a cycle: a → b → a$/);
    expect(() => scenarioChain(cyclic, "d")).toThrow(/in a cycle: d → d$/);
    expect(() => scenarioChain(cyclic, "a")).toThrow(expect.objectContaining({ code: "E_SCENARIO_CYCLE" }));
  });

  it("names an unknown parent, with a did-you-mean", () => {
    const broken: WorldSpec = { fakes, scenarios: { quiet: {}, blocked: { extends: "quet" } } };
    expect(() => scenarioChain(broken, "blocked")).toThrow(
      '[eval-simulate] scenario "blocked" extends "quet", which is not a scenario (did you mean "quiet"?); known: quiet, blocked',
    );
  });
});

describe("defaultScenario", () => {
  it("is the one marked default: true", () => {
    expect(defaultScenario({ fakes, scenarios: { quiet: {}, busy: { default: true } } })).toBe("busy");
  });

  it("is the only scenario when none is marked", () => {
    expect(defaultScenario({ fakes, scenarios: { only: {} } })).toBe("only");
  });

  it("is the first declared when several are and none is marked", () => {
    expect(defaultScenario({ fakes, scenarios: { first: {}, second: {} } })).toBe("first");
  });

  it('is the implicit "default" when there are no scenarios, built from the defaults alone', async () => {
    const spec: WorldSpec = { fakes, scenarios: {} };
    expect(defaultScenario(spec)).toBe("default");
    expect(await buildWorld(spec, undefined, CLOCK)).toEqual(await buildWorld(spec, "default", CLOCK));
    expect(await buildWorld(spec, undefined, CLOCK)).toEqual({
      notes: { notes: [], settings: { theme: "light", limits: { max: 10, min: 1 } } },
      mail: { inbox: [{ id: "m0" }] },
    });
  });

  it("refuses two scenarios marked default", () => {
    expect(() => defaultScenario({ fakes, scenarios: { a: { default: true }, b: { default: true } } })).toThrow(
      /only one scenario may be default: true; these are: a, b/,
    );
  });
});

describe("buildWorld", () => {
  const spec: WorldSpec = {
    fakes,
    scenarios: {
      quiet: {
        default: true,
        state: {
          notes: {
            notes: [{ id: { $id: "note-1" }, title: "Kickoff", createdAt: { $date: "-3d", at: "09:00" } }],
            settings: { limits: { max: 50 } },
          },
        },
      },
      busy: {
        extends: "quiet",
        state: { notes: { settings: { theme: "dark", limits: { min: 5 } } }, mail: { inbox: [{ id: "m1" }, { id: "m2" }] } },
      },
      blocked: { extends: "busy", state: { notes: { notes: [], cursor: { page: 2 } } } },
    },
  };

  it("starts every fake from its entities' defaults and leaves out entities with none", async () => {
    const world = await buildWorld({ fakes, scenarios: { bare: {} } }, "bare", CLOCK);
    expect(world.notes).toEqual({ notes: [], settings: { theme: "light", limits: { max: 10, min: 1 } } });
    expect(Object.hasOwn(world.notes, "cursor")).toBe(false);
  });

  it("merges a three-level extends chain root first: objects deeply, arrays replaced", async () => {
    expect(await buildWorld(spec, "blocked", CLOCK)).toEqual({
      notes: { notes: [], settings: { theme: "dark", limits: { max: 50, min: 5 } }, cursor: { page: 2 } },
      mail: { inbox: [{ id: "m1" }, { id: "m2" }] },
    });
  });

  it("resolves special values against the clock", async () => {
    const world = await buildWorld(spec, undefined, CLOCK);
    expect(world.notes.notes).toEqual([{ id: labelId("note-1"), title: "Kickoff", createdAt: "2026-09-28T09:00:00.000Z" }]);
  });

  it("treats a special value as one leaf: a later $date replaces an earlier one, at and all", async () => {
    const layered: WorldSpec = {
      fakes: { f: { entities: { e: { default: { when: { $date: "-1d", at: "09:00" } } } } } },
      scenarios: { s: { state: { f: { e: { when: { $date: "-2d" } } } } } },
    };
    expect(await buildWorld(layered, "s", CLOCK)).toEqual({ f: { e: { when: "2026-09-29T12:00:00.000Z" } } });
  });

  it("refuses an unknown scenario, naming the known ones", async () => {
    const error = await buildWorld(spec, "x", CLOCK).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownScenarioError);
    expect((error as UnknownScenarioError).code).toBe("E_UNKNOWN_SCENARIO");
    expect((error as Error).message).toBe('[eval-simulate] unknown scenario "x"; known: quiet, busy, blocked');
  });

  it("builds equal worlds from the same scenario and clock that share no object", async () => {
    const first = await buildWorld(spec, "blocked", CLOCK);
    const second = await buildWorld(spec, "blocked", CLOCK);
    expect(second).toEqual(first);
    expect(sharedObjects(first, second)).toEqual([]);
    expect(sharedObjects(first, spec)).toEqual([]);
  });

  it("leaves the spec untouched when a world is changed", async () => {
    const world = await buildWorld(spec, "busy", CLOCK);
    (world.notes.settings as { limits: { max: number } }).limits.max = 0;
    (world.mail.inbox as unknown[]).push("x");
    expect(await buildWorld(spec, "busy", CLOCK)).toEqual({
      notes: expect.objectContaining({ settings: { theme: "dark", limits: { max: 50, min: 5 } } }),
      mail: { inbox: [{ id: "m1" }, { id: "m2" }] },
    });
  });

  it("keeps an entity named __proto__ as state, never as a prototype", async () => {
    const spec = JSON.parse('{ "fakes": { "f": { "entities": { "__proto__": { "default": { "polluted": true } } } } }, "scenarios": {} }');
    const world = await buildWorld(spec, undefined, CLOCK);
    expect(Object.hasOwn(world.f, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(world.f)).toBe(Object.prototype);
  });

  it("refuses state for an undeclared fake or entity, naming it", async () => {
    const typoFake: WorldSpec = { fakes, scenarios: { s: { state: { note: { notes: [] } } } } };
    await expect(buildWorld(typoFake, "s", CLOCK)).rejects.toThrow(
      '[eval-simulate] scenario "s" sets state for "note", which is not a server or api (did you mean "notes"?); known: notes, mail',
    );
    const typoEntity: WorldSpec = { fakes, scenarios: { s: { state: { notes: { note: [] } } } } };
    await expect(buildWorld(typoEntity, "s", CLOCK)).rejects.toThrow(
      expect.objectContaining({ code: "E_UNKNOWN_ENTITY", path: ["notes", "note"], scenario: "s" }),
    );
  });

  it("reports a bad value with its scenario and its path from the fake id", async () => {
    const bad: WorldSpec = { fakes, scenarios: { s: { state: { notes: { notes: [{ createdAt: { $date: "-3days" } }] } } } } };
    await expect(buildWorld(bad, "s", CLOCK)).rejects.toThrow(
      expect.objectContaining({
        path: ["notes", "notes", 0, "createdAt"],
        scenario: "s",
        message: expect.stringMatching(/^\[eval-simulate\] scenario "s", notes\.notes\[0\]\.createdAt: \$date "-3days"/),
      }),
    );
  });
});
