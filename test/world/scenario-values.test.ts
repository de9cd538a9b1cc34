import { describe, expect, it } from "vitest";
import { checkScenarioValues, labelId, resolveScenarioValues, WorldError } from "../../engine/author/world/index.js";

const CLOCK = new Date("2026-10-01T09:00:00Z");

describe("scenario values", () => {
  it("replaces { $id } with the label's stable id, the same on every call", async () => {
    const first = await resolveScenarioValues({ id: { $id: "note-1" } }, CLOCK);
    const second = await resolveScenarioValues({ id: { $id: "note-1" } }, CLOCK);
    expect(first).toEqual({ id: labelId("note-1") });
    expect(second).toEqual(first);
  });

  it("evaluates { $expr } with $now bound to the clock and $labelId available", async () => {
    expect(await resolveScenarioValues({ $expr: "$now" }, CLOCK)).toBe("2026-10-01T09:00:00.000Z");
    expect(await resolveScenarioValues({ $expr: "$labelId('a')" }, CLOCK)).toBe(labelId("a"));
    expect(await resolveScenarioValues({ $expr: "$fromMillis($toMillis($now) - 86400000)" }, CLOCK)).toBe("2026-09-30T09:00:00.000Z");
  });

  it("binds $millis() to the clock, so the machine's time never leaks into a world", async () => {
    expect(await resolveScenarioValues({ $expr: "$millis()" }, CLOCK)).toBe(CLOCK.getTime());
  });

  it("returns $expr results as plain JSON, without jsonata's sequence flags", async () => {
    const result = await resolveScenarioValues({ $expr: "[1, 2, 3][$ > 1]" }, CLOCK);
    expect(result).toEqual([2, 3]);
    expect(Object.keys(result as object)).toEqual(["0", "1"]);
  });

  it("resolves special values nested inside arrays and objects, leaving other data as it is", async () => {
    const state = {
      notes: [{ id: { $id: "n1" }, at: "literal", createdAt: { $date: "-1d", at: "08:00" }, tags: [{ $expr: "'x' & 'y'" }, 2] }, [{ $date: "0d" }]],
    };
    expect(await resolveScenarioValues(state, CLOCK)).toEqual({
      notes: [{ id: labelId("n1"), at: "literal", createdAt: "2026-09-30T08:00:00.000Z", tags: ["xy", 2] }, ["2026-10-01T09:00:00.000Z"]],
    });
  });

  it("returns a fresh copy and leaves its input untouched", async () => {
    const state = { list: [{ a: 1 }], when: { $date: "0d" } };
    const result = (await resolveScenarioValues(state, CLOCK)) as typeof state;
    expect(result.list).not.toBe(state.list);
    expect(result.list[0]).not.toBe(state.list[0]);
    expect(state.when).toEqual({ $date: "0d" });
  });

  it("refuses a $-key typo with a did-you-mean and the JSON path of the value", async () => {
    const state = { notes: { notes: [{ createdAt: { $data: "-3d" } }] } };
    const error = await resolveScenarioValues(state, CLOCK).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorldError);
    expect((error as WorldError).path).toEqual(["notes", "notes", 0, "createdAt"]);
    expect((error as WorldError).code).toBe("E_WORLD_VALUE");
    expect((error as Error).message).toBe('[eval-simulate] notes.notes[0].createdAt: unknown special value key "$data": did you mean $date?');
  });

  it("names the scenario in the error when told it", async () => {
    const error = (await resolveScenarioValues({ x: { $id: 3 } }, CLOCK, { path: ["notes"], scenario: "quiet" }).catch((e: unknown) => e)) as WorldError;
    expect(error.message).toMatch(/^\[eval-simulate\] scenario "quiet", notes\.x: \$id must be a non-empty string label/);
    expect(error.scenario).toBe("quiet");
  });

  it("refuses extra keys beside a special value, and $-keys with no near name", async () => {
    await expect(resolveScenarioValues({ $id: "a", name: "b" }, CLOCK)).rejects.toThrow(/\$id stands alone as \{ \$id \}; remove "name"/);
    await expect(resolveScenarioValues({ $date: "0d", at: "09:00", tz: "UTC" }, CLOCK)).rejects.toThrow(/remove "tz"/);
    await expect(resolveScenarioValues({ $ref: "#/x" }, CLOCK)).rejects.toThrow(/special values are \{ \$date \}/);
  });

  it("fails a $expr that errors, runs away or yields nothing, with the path", async () => {
    await expect(resolveScenarioValues({ a: { $expr: "$labelId(1)" } }, CLOCK)).rejects.toThrow(
      /^\[eval-simulate\] a: \$expr failed: .*labelId needs a string/,
    );
    await expect(resolveScenarioValues({ a: { $expr: "$nothing.here" } }, CLOCK)).rejects.toThrow(/a: \$expr produced no value/);
    await expect(resolveScenarioValues({ a: { $expr: "function($x) { $x }" } }, CLOCK)).rejects.toThrow(/not JSON: a function/);
    const runaway = "( $f := function($n) { $f($n + 1) }; $f(0) )";
    await expect(resolveScenarioValues({ a: { $expr: runaway } }, CLOCK)).rejects.toThrow(/\$expr failed: (Stack overflow|Evaluation timeout)/);
  });

  it("finds every problem without a clock, each with its path, for the validator", () => {
    const state = {
      notes: {
        notes: [
          { createdAt: { $data: "-3d" } },
          { createdAt: { $date: "-3q" }, id: { $id: "" } },
          { due: { $date: "1d", at: "9" }, total: { $expr: "1 +" }, fine: { $date: "-1w", at: "09:00" } },
        ],
      },
    };
    const problems = checkScenarioValues(state, ["scenarios", "quiet", "state"]);
    expect(problems.map((p) => [p.code, p.path.join(".")])).toEqual([
      ["E_WORLD_VALUE", "scenarios.quiet.state.notes.notes.0.createdAt"],
      ["E_WORLD_VALUE", "scenarios.quiet.state.notes.notes.1.createdAt"],
      ["E_WORLD_VALUE", "scenarios.quiet.state.notes.notes.1.id"],
      ["E_WORLD_VALUE", "scenarios.quiet.state.notes.notes.2.due"],
      ["E_JSONATA_SYNTAX", "scenarios.quiet.state.notes.notes.2.total"],
    ]);
    expect(problems[4].offset).toBe(3);
  });

  it("reports a $expr syntax error's offset at the start of the offending token", () => {
    const [problem] = checkScenarioValues({ v: { $expr: "foo bar" } });
    expect(problem).toMatchObject({ code: "E_JSONATA_SYNTAX", path: ["v"], offset: 4 });
    expect(problem.message).toMatch(/does not compile at character 4: Syntax error: "bar" \(S0201\)/);
  });

  it("finds no problem in plain data and well-formed special values", () => {
    expect(checkScenarioValues({ a: [1, { b: null }], c: { $date: "now" }, d: { $expr: "$now" }, at: "x" })).toEqual([]);
  });
});
