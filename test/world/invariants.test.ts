import { describe, expect, it } from "vitest";
import { checkInvariants, compileInvariants } from "../../engine/author/world/index.js";

const world = { notes: { notes: [{ id: "a" }, { id: "b" }, { id: "a" }] } };

describe("invariants", () => {
  it("passes when every expression returns true", async () => {
    const { compiled, problems } = compileInvariants([
      { name: "there are notes", assert: "$count($world.notes.notes) > 0" },
      { name: "ids are strings", assert: "$count($world.notes.notes[$type(id) != 'string']) = 0" },
    ]);
    expect(problems).toEqual([]);
    expect(await checkInvariants(world, compiled)).toEqual([]);
  });

  it("fails an expression that returns false, with no error", async () => {
    const { compiled } = compileInvariants([
      { name: "fine", assert: "true" },
      { name: "note ids are unique", assert: "$count($distinct($world.notes.notes.id)) = $count($world.notes.notes)" },
    ]);
    expect(await checkInvariants(world, compiled)).toEqual([{ name: "note ids are unique", index: 1 }]);
  });

  it("fails an expression that returns something other than a boolean, saying what", async () => {
    const { compiled } = compileInvariants([
      { name: "count", assert: "$count($world.notes.notes)" },
      { name: "ids", assert: "$world.notes.notes.id" },
      { name: "missing", assert: "$world.nothing" },
    ]);
    expect(await checkInvariants(world, compiled)).toEqual([
      { name: "count", index: 0, error: "returned 3, not true/false" },
      { name: "ids", index: 1, error: 'returned ["a","b","a"], not true/false' },
      { name: "missing", index: 2, error: "returned nothing (a path that matched no value?), not true/false" },
    ]);
  });

  it("fails an expression that errors or runs away, within the time limit", async () => {
    const { compiled } = compileInvariants([
      { name: "type error", assert: "$world.notes.notes + 1" },
      { name: "runaway", assert: "( $f := function($n) { $n < 0 ? true : $f($n + 1) }; $f(0) )" },
    ]);
    const started = Date.now();
    const failures = await checkInvariants(world, compiled);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({ name: "type error", index: 0, error: expect.stringMatching(/^failed at character \d+: .*must evaluate to a number/) });
    expect(failures[1].error).toMatch(/Stack overflow|Evaluation timeout/);
  });

  it("binds $now when given a clock", async () => {
    const { compiled } = compileInvariants([{ name: "clock", assert: "$now = '2026-10-01T00:00:00.000Z'" }]);
    expect(await checkInvariants(world, compiled, new Date("2026-10-01T00:00:00Z"))).toEqual([]);
  });

  it("returns every syntax error with the start offset of the offending token", () => {
    const { compiled, problems } = compileInvariants([
      { name: "ok", assert: "true" },
      { name: "doubled operator", assert: "$world.a = = 1" },
      { name: "unfinished", assert: "$count(" },
    ]);
    expect(compiled.map((c) => c.name)).toEqual(["ok"]);
    expect(problems).toEqual([
      {
        name: "doubled operator",
        index: 1,
        code: "E_JSONATA_SYNTAX",
        jsonataCode: "S0211",
        message: 'The symbol "=" cannot be used as a unary operator',
        offset: 11,
      },
      { name: "unfinished", index: 2, code: "E_JSONATA_SYNTAX", jsonataCode: "S0203", message: 'Expected ")" before end of expression', offset: 7 },
    ]);
  });
});
