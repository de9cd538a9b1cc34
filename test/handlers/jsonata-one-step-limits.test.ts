import { describe, expect, it } from "vitest";
import { JsonataRuntimeError, runJsonataHandler } from "../../engine/author/handlers/jsonata-index.js";
import { checkInvariants, compileInvariants, resolveScenarioValues } from "../../engine/author/world/index.js";
import { handlerOf, inputOf } from "./jsonata-input.js";

/** The steps jsonata 2.2.2 takes synchronously, out of the evaluation hook's sight. */

const HUGE = 9007199254740992; // 2^53: `item++` no longer changes it

async function failure(expression: string, args: Record<string, unknown> = {}): Promise<JsonataRuntimeError> {
  const error = await runJsonataHandler(handlerOf(expression), inputOf({ args }), { timeoutMs: 10_000 }).then(
    (result) => expect.fail(`expected an error, got ${JSON.stringify(result)}`),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(JsonataRuntimeError);
  return error as JsonataRuntimeError;
}

const value = async (expression: string, args: Record<string, unknown> = {}) =>
  (await runJsonataHandler(handlerOf(expression), inputOf({ args }))) as { value: unknown };

const shared = "$a := [1..1000]; $b := [1..1000].{ 'x': $a }; $c := [1..1000].{ 'y': $b }";
const sharedToo = "$a2 := [1..1000]; $b2 := [1..1000].{ 'x': $a2 }; $c2 := [1..1000].{ 'y': $b2 }";

describe("a range with a bound past 2^53 (jsonata's range loop would never end)", () => {
  it.each([
    ["a literal bound", `[${HUGE}..${HUGE + 2}]`, HUGE],
    ["a bound from the arguments, as an offset", "[1, 2, 3][[$args.offset .. $args.offset + 9]]", HUGE],
    ["a negative bound", "[-1e17..-1e17]", -1e17],
    ["a bound from a variable in a block", `($o := ${HUGE}; [$o..$o + 1])`, HUGE],
    ["a range that $eval parses at run time", `$eval("[${HUGE}..${HUGE + 1}]")`, HUGE],
    ["a range whose other bound is smaller", "[1e16..1]", 1e16],
  ])("ends %s as a size error naming the bound", async (_name, expression, bound) => {
    const error = await failure(expression, { offset: HUGE });
    expect(error.code).toBe("E_HANDLER_TOO_LARGE");
    expect(error.message).toContain(`gave a range the bound ${bound}, past ±9007199254740991`);
  });

  it("builds ranges up to the largest exact integer as before", async () => {
    expect(await value("[9007199254740990..9007199254740991]")).toMatchObject({ value: [9007199254740990, 9007199254740991] });
    expect(await value("[$args.o..$args.o + 2]", { o: -3 })).toMatchObject({ value: [-3, -2, -1] });
    expect(await value("[5..1]")).toMatchObject({ value: [] });
  });

  it("ends the same range in a scenario's $expr and in an invariant, as errors", async () => {
    const resolving = resolveScenarioValues({ list: { $expr: `[${HUGE}..${HUGE + 1}]` } }, new Date("2026-01-01T00:00:00Z"));
    await expect(resolving).rejects.toThrow(/\$expr failed: the expression gave a range the bound 9007199254740992/);
    const { compiled } = compileInvariants([{ name: "range", assert: `$count([${HUGE}..${HUGE + 1}]) = 2` }]);
    const [failed] = await checkInvariants({}, compiled);
    expect(failed?.error).toContain("gave a range the bound 9007199254740992");
  });
});

describe("built-ins that walk a whole value in one step", () => {
  it("refuses to compare, write out or de-duplicate a value whose shared parts stand for a billion nodes", async () => {
    expect((await failure(`(${shared}; ${sharedToo}; $c = $c2)`)).message).toContain("compared a value of more than 2000000 nodes");
    expect((await failure(`(${shared}; $string($c))`)).message).toContain("gave $string a value of more than 2000000 nodes");
    expect((await failure(`(${shared}; $clone({ 'all': $c }))`)).message).toContain("gave $clone a value");
    expect((await failure(`(${shared}; $distinct($c))`)).message).toContain("gave $distinct a value");
  });

  it("refuses $boolean, $not and $lookup on nested arrays that stand for a billion items, and reads objects' insides as jsonata does", async () => {
    const nested = "$a := [[1..1000]]; $b := [1..1000].[$a]; $c := [1..1000].[$b]";
    for (const call of ["$boolean($c)", "$not($c)", "$lookup($c, 'x')"]) {
      expect((await failure(`(${nested}; ${call})`)).message).toContain(`gave ${call.slice(0, call.indexOf("("))} a value of more than 2000000 nodes`);
    }
    // Objects are not looked into by $boolean, so large ones inside an array are not counted.
    expect(await value("($o := [1..1000].{ 'a': [1..1000] }; $boolean([1..3].($o)))")).toMatchObject({ value: true });
    expect(await value('$lookup([{ "x": 1 }, { "x": 2 }], "x")')).toMatchObject({ value: [1, 2] });
  });

  it("de-duplicates in one pass, keeping jsonata's deep equality and order", async () => {
    expect(await value('$distinct([1, "1", 1, {"a": 1, "b": [2]}, {"b": [2], "a": 1}, [1, 2], [1, 2], null, null, true])')).toMatchObject({
      value: [1, "1", { a: 1, b: [2] }, [1, 2], null, true],
    });
    expect(await value("$count($distinct([1..20000].{ 'n': $ % 10 }))")).toMatchObject({ value: 10 });
    expect(await value('$distinct(["a", "a"])')).toMatchObject({ value: ["a"] });
    // A sequence in, a sequence out: one item reads as the item, as with jsonata's own.
    expect(await value('$distinct(["a", "b"].("x"))')).toMatchObject({ value: "x" });
  });

  it("splits no further than one item past the size cap", async () => {
    expect((await failure('$count($split($pad("", 300000, "x"), ""))')).message).toContain("built an array of 100001 items");
    expect(await value('$split("a,b,c", ",", 2)')).toMatchObject({ value: ["a", "b"] });
  });
});

describe("formatting built-ins whose picture sets how much they build", () => {
  it.each([
    [
      "a date width that would pad to 400 million digits",
      '$fromMillis(0, "[Y,400000000]")',
      "gave $fromMillis a picture whose width 400000000 is past its limit of 1000",
    ],
    [
      "a number picture of 100,000 characters (quadratic grouping)",
      '$formatNumber(1, $pad("", 100000, "0,00"))',
      "gave $formatNumber a picture of 100000 characters",
    ],
    ["an integer picture of 100,000 characters", '$formatInteger(1, $pad("", 100000, "0,00"))', "gave $formatInteger a picture of 100000 characters"],
  ])("refuses %s", async (_name, expression, message) => {
    const error = await failure(expression);
    expect(error.code).toBe("E_HANDLER_TOO_LARGE");
    expect(error.message).toContain(message);
  });

  it("formats ordinary pictures as jsonata does", async () => {
    expect(await value('$formatNumber(1234.5, "#,##0.00")')).toMatchObject({ value: "1,234.50" });
    expect(await value('$fromMillis(0, "[Y0001,2-4]-[M01]")')).toMatchObject({ value: "1970-01" });
    expect(await value('$toMillis("2020-01-01", "[Y0001]-[M01]-[D01]")')).toMatchObject({ value: 1577836800000 });
  });
});
