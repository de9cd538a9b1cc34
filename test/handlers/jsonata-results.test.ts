import { describe, expect, it } from "vitest";
import { JsonataRuntimeError, isTruthy, runJsonataHandler, toPlainJson } from "../../engine/author/handlers/jsonata-index.js";
import { handlerOf, inputOf, shapeOf } from "./jsonata-input.js";

describe("a JSONata handler's results", () => {
  it("are plain arrays, without jsonata's sequence flags, at any depth", async () => {
    const handler = handlerOf({
      set: { notes: "$state.notes[tags = 'a']" },
      return: '{ "ids": $state.notes.id[], "tags": $state.notes.tags, "nested": [[1..3], [$map([1, 2], function($v){ $v * 2 })]] }',
    });
    const result = await runJsonataHandler(handler, inputOf());
    if (result.kind !== "answer") expect.fail("expected an answer");
    const value = result.value as { ids: unknown[]; tags: unknown[]; nested: unknown[][] };
    expect(value).toStrictEqual({
      ids: ["note-1"],
      tags: ["a", "b"],
      nested: [
        [1, 2, 3],
        [2, 4],
      ],
    });
    for (const array of [value.ids, value.tags, value.nested, value.nested[0], value.nested[1], result.set.notes]) {
      expect(Object.keys(array as object).every((key) => /^\d+$/.test(key))).toBe(true);
      expect(array).not.toHaveProperty("sequence");
      expect(array).not.toHaveProperty("keepSingleton");
    }
    expect(JSON.stringify(value)).toBe('{"ids":["note-1"],"tags":["a","b"],"nested":[[1,2,3],[2,4]]}');
  });

  it("drop keys whose value is nothing", async () => {
    const result = await runJsonataHandler(handlerOf('{ "a": 1, "b": $args.missing, "c": { "d": $nothing } }'), inputOf());
    expect(result).toMatchObject({ value: { a: 1, c: {} } });
    expect(Object.keys((result as { value: object }).value)).toEqual(["a", "c"]);
  });

  it("share no object with the state they came from", async () => {
    const input = inputOf();
    const result = await runJsonataHandler(handlerOf({ set: { notes: "$state.notes" }, return: "$state.notes[0]" }), input);
    if (result.kind !== "answer") expect.fail("expected an answer");
    expect(result.set.notes).toEqual(input.state.notes);
    expect(result.set.notes).not.toBe(input.state.notes);
    expect(result.value).not.toBe((input.state.notes as unknown[])[0]);
  });

  it("keep an entity or a binding named __proto__ as data", async () => {
    const spec = JSON.parse('{ "let": { "__proto__": "2" }, "set": { "__proto__": "[$__proto__]" }, "return": "$__proto__" }');
    const result = await runJsonataHandler(handlerOf(spec), inputOf());
    if (result.kind !== "answer") expect.fail("expected an answer");
    expect(result.value).toBe(2);
    expect(Object.getPrototypeOf(result.set)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(result.set, "__proto__")?.value).toEqual([2]);
  });

  it("refuse a function in the answer as a runtime error naming where", async () => {
    const run = runJsonataHandler(handlerOf({ return: '{ "f": function($x){ $x } }' }), inputOf());
    await expect(run).rejects.toBeInstanceOf(JsonataRuntimeError);
    await expect(run).rejects.toMatchObject({ code: "E_HANDLER_NOT_JSON", path: ["return"], message: expect.stringContaining("a function at f") });
  });
});

describe("running a JSONata handler", () => {
  it("leaves its input untouched: no flags on arrays, no new keys, no changed values", async () => {
    const input = inputOf({
      args: { ids: ["note-1"], filter: { tags: ["a"] } },
      state: {
        notes: [
          { id: "note-1", tags: ["a", "b"] },
          { id: "note-2", tags: [] },
        ],
        single: [{ id: "x" }],
        empty: [],
      },
      world: { other: { list: [1, 2, 3] } },
    });
    const before = shapeOf({ args: input.args, state: input.state, world: input.world });
    const handler = handlerOf({
      let: {
        picked: "$state.notes[id in $args.ids]",
        sorted: "$sort($state.notes, function($a, $b){ $a.id < $b.id })",
        kept: "$state.single[]",
        whole: "$state ~> | notes | { 'seen': true } |",
      },
      set: {
        notes: '$append($state.notes, $state.notes[0]) ~> $map(function($n){ $merge([$n, { "n": 1 }]) })',
        single: "$state.single",
        empty: "$append($state.empty, $world.other.list)",
      },
      return:
        '{ "a": $args.ids, "b": $reverse($world.other.list), "c": $distinct($state.notes.tags), "d": $state.notes^(>id), "e": $sift($args.filter, function($v){ $v }), "f": $spread($state.notes[0]), "g": [$state.single], "h": $state.notes[0].tags[], "i": $args.ids[] }',
    });
    const result = await runJsonataHandler(handler, input);
    expect(result.kind).toBe("answer");
    expect(shapeOf({ args: input.args, state: input.state, world: input.world })).toEqual(before);
  });

  it("takes jsonata's truthiness for guards and isError", () => {
    expect([undefined, null, false, 0, "", [], {}, [0, ""]].map(isTruthy)).toEqual(Array(8).fill(false));
    expect([true, 1, "x", [0, 1], { a: 0 }].map(isTruthy)).toEqual(Array(5).fill(true));
  });

  it("turns a value into JSON with toPlainJson, arrays inside getting null for nothing", () => {
    const sequence = Object.assign([1, undefined, [2]], { sequence: true });
    expect(toPlainJson({ a: sequence, b: undefined })).toStrictEqual({ a: [1, null, [2]] });
  });
});
