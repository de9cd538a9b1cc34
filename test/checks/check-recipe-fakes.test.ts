import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkRecipeFakes, type RecipeChecksOptions } from "../../engine/entries/checks.js";
import { loadFakes } from "../../engine/author/fakes/load-fakes.js";
import * as entityMap from "../fixtures/checks-entity-map/index.js";
import * as inputSchema from "../fixtures/checks-input-schema/index.js";
import * as isolation from "../fixtures/checks-isolation/index.js";
import * as servedTools from "../fixtures/checks-served-tools/index.js";
import * as staticTool from "../fixtures/checks-static-tool/index.js";
import * as typescriptFake from "../fixtures/checks-typescript/index.js";
import * as unknownScenario from "../fixtures/checks-unknown-scenario/index.js";
import { CLOCK, MANIFEST, recordContractCalls } from "../fixtures/checks-valid/record.js";
import * as worldConsistent from "../fixtures/checks-world-consistent/index.js";
import { collector, failedNames, runCollected, vitestCollector } from "./collected-tests.js";

const OBSERVED = new URL("../fixtures/checks-observed/fakes.yaml", import.meta.url).pathname;

const NAMES = [
  "notes serves the Recipe's allowed tools from its contract, in captured order",
  "notes maps every allowed tool to its entities",
  "notes has no static tool over an entity a tool writes or a world fills",
  "notes refuses a call outside a tool's input schema and changes no state",
  "notes shares no state between two started instances",
  "notes answers every observed tool as the real server did",
  "the quiet world is consistent",
  "the empty world is consistent",
  "an unknown scenario is refused",
];

let record: string;

beforeAll(async () => {
  record = join(mkdtempSync(join(tmpdir(), "eval-simulate-checks-")), "responses.jsonl");
  const { fakes, world } = await loadFakes(MANIFEST, { clock: CLOCK });
  await recordContractCalls(fakes, world, record);
});

/** Registers the checks with a collecting `test`, runs them, and returns each outcome. */
async function checks(options: Omit<RecipeChecksOptions, "test">) {
  const { test, tests } = collector();
  checkRecipeFakes({ clock: CLOCK, ...options, test });
  return runCollected(tests);
}

describe("checkRecipeFakes", () => {
  it("registers one test per check per fake, per scenario, and for an unknown scenario; all pass on a sound fake", async () => {
    const outcomes = await checks({ manifest: MANIFEST, record });
    expect(outcomes.map((o) => o.name)).toEqual(NAMES);
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
  });

  it("passes on a sound fake declared in TypeScript", async () => {
    const outcomes = await checks({ fakes: { notes: typescriptFake }, world: typescriptFake.world, scenarios: typescriptFake.SCENARIOS });
    expect(failedNames(outcomes)).toEqual([]);
    expect(outcomes.map((o) => o.name)).toContain("the busy world is consistent");
  });

  it("registers with node:test's shape (name, { timeout }, fn) and vitest's (name, fn, timeout)", () => {
    const node = collector();
    checkRecipeFakes({ test: node.test, manifest: MANIFEST, timeout: 5000 });
    expect(node.tests[0].options).toEqual({ timeout: 5000 });
    const vitest = vitestCollector();
    checkRecipeFakes({ test: vitest.test, manifest: MANIFEST });
    expect(vitest.tests[0].timeout).toBe(60_000);
    expect(vitest.tests.map((t) => t.name)).toEqual(NAMES);
  });

  it("fails only the tools/list check when a served tool differs from its capture", async () => {
    const outcomes = await checks(await servedTools.load());
    expect(failedNames(outcomes)).toEqual([NAMES[0]]);
    expect(outcomes[0].message).toMatch(
      /"create-note" is served unlike its capture at description: served "Creates a note \(edited by hand\)\.", captured "Creates a note\."/,
    );
    expect(outcomes[0].message).toMatch(/To fix: serve each allowed tool exactly as the capture holds it/);
  });

  it("fails only the entity-map check when a read-only tool writes and names an unknown entity", async () => {
    const outcomes = await checks(entityMap.options);
    expect(failedNames(outcomes)).toEqual([NAMES[1]]);
    expect(outcomes[1].message).toMatch(/"list-notes" reads "archive", which is not one of notes's entities \(notes, templates\)/);
    expect(outcomes[1].message).toMatch(/"list-notes" writes notes, but its capture says readOnlyHint: true/);
    expect(outcomes[1].message).toMatch(/To fix: edit the manifest of the TypeScript fake "notes"/);
  });

  it("fails only the static-tool check when a static tool reads what a tool writes", async () => {
    const outcomes = await checks(staticTool.options);
    expect(failedNames(outcomes)).toEqual([NAMES[2]]);
    expect(outcomes[2].message).toMatch(/the static tool "list-templates" reads "notes", which "create-note" writes/);
    expect(outcomes[2].message).toMatch(/make such a tool stateful/);
  });

  it("fails only the input-schema check when a fake answers calls its schema refuses", async () => {
    const outcomes = await checks(await inputSchema.load());
    expect(failedNames(outcomes)).toEqual([NAMES[3]]);
    expect(outcomes[3].message).toMatch(/create-note with the required argument "title" left out \(\{\}\) was answered: "Note created! .* and changed notes/);
    expect(outcomes[3].message).toMatch(/create-note with an undeclared argument "eval_simulate_undeclared" .* changed notes/);
    expect(outcomes[3].message).toMatch(/"pinned" given a string where the schema says boolean/);
    expect(outcomes[3].message).toMatch(/validate every call against it/);
  });

  it("fails only the isolation check when starts share a module counter", async () => {
    const outcomes = await checks(isolation.options);
    expect(failedNames(outcomes)).toEqual([NAMES[4]]);
    expect(outcomes[4].message).toMatch(/a call to each writing tool \(create-note\), made to each instance, left them with different notes/);
    expect(outcomes[4].message).toMatch(/never in a module variable/);
  });

  it("replays the recording on both instances when given one", async () => {
    const outcomes = await checks({ ...isolation.options, record });
    expect(outcomes[4].message).toMatch(/the \d+ calls .*responses\.jsonl records, made to each instance, left them with different notes/);
  });

  it("fails only the observed check when answers read unlike the real server's", async () => {
    const outcomes = await checks({ manifest: OBSERVED, record });
    expect(failedNames(outcomes)).toEqual([NAMES[5]]);
    const { message } = outcomes[5];
    expect(message).toMatch(/"create-note" .*it starts "Note created! .* where the real server's answers started "Note saved: "/);
    expect(message).toMatch(/"list-notes" .*the answer must have required property 'total', unlike the real server's answers/);
    expect(message).toMatch(/To fix: make the tool's answer read like the real server's/);
  });

  it("takes the record under its old name, recording, with the same outcomes", async () => {
    const outcomes = await checks({ manifest: OBSERVED, recording: record });
    expect(outcomes).toEqual(await checks({ manifest: OBSERVED, record }));
    expect(failedNames(outcomes)).toEqual([NAMES[5]]);
  });

  it("fails the observed check when an observed tool has no recorded answer", async () => {
    const empty = join(mkdtempSync(join(tmpdir(), "eval-simulate-checks-")), "responses.jsonl");
    const outcomes = await checks({ manifest: OBSERVED, record: empty });
    expect(outcomes[5].ok).toBe(false);
    expect(outcomes[5].message).toMatch(
      /"create-note" was observed \(3 samples\) but .* holds no successful answer of it: call it in a contract test that records/,
    );
  });

  it("fails only a scenario's world check when the Recipe's consistent throws for it", async () => {
    const outcomes = await checks({ ...worldConsistent.options, record });
    expect(failedNames(outcomes)).toEqual([NAMES[7]]);
    expect(outcomes[7].message).toMatch(/consistent\(world, "empty"\) threw: scenario empty holds no note, and every case reads one/);
    expect(outcomes[7].message).toMatch(/To fix: change the scenario's state/);
  });

  it("fails a world check naming a fake the world lacks and an entity outside its schema", async () => {
    const world = (scenario: string) => (scenario === "quiet" ? typescriptFake.world("quiet") : { other: {} });
    const broken = (scenario: string) => (scenario === "busy" ? { notes: { notes: "many", templates: ["Meeting", "Call"] } } : world(scenario));
    const outcomes = await checks({ fakes: { notes: typescriptFake }, world: broken, scenarios: ["quiet", "busy", "gone"] });
    const byName = Object.fromEntries(outcomes.map((o) => [o.name, o]));
    expect(byName["the busy world is consistent"].message).toMatch(/notes\.notes must be array/);
    expect(byName["the gone world is consistent"].message).toMatch(/it holds no state for the fake "notes"/);
  });

  it("fails only the unknown-scenario check when the world builds any name", async () => {
    const outcomes = await checks({ ...(await unknownScenario.load()), record });
    expect(failedNames(outcomes)).toEqual(["an unknown scenario is refused"]);
    expect(outcomes.at(-1)?.message).toMatch(/built a world \(notes\) for a scenario it does not know\nTo fix: make world\(scenario, clock\) throw/);
  });

  it("asks for scenarios when a world function cannot list them", () => {
    const { test } = collector();
    expect(() => checkRecipeFakes({ test, fakes: { notes: typescriptFake }, world: typescriptFake.world })).toThrow(/pass `scenarios`/);
  });
});
