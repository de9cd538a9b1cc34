import jsonata from "jsonata";
import { describe, expect, it } from "vitest";
import { DECLINED, directEvaluator } from "../../engine/author/handlers/jsonata-direct.js";
import { compileExpression, RunGuard, runJsonataHandler, toPlainJson } from "../../engine/author/handlers/jsonata-index.js";
import { handlerOf, inputOf } from "./jsonata-input.js";

/** Expressions of the shapes read directly, and some that are not. */
const EXPRESSIONS = [
  '{ "id": $args.id, "limit": $args.limit, "counter": $state.counter }',
  "$args.id",
  "$args",
  "$state.note.title",
  "$state.note.missing.deeper",
  '"text"',
  "42",
  "-1.5",
  "true",
  "null",
  '{ "a": { "b": $args.x.y, "c": [1] }, "d": $args.s }',
  '{ "a": { "b": $args.x.y }, "d": $args.s, "e": "lit", "f": false, "g": null }',
  "$args.constructor",
  "$args.toString",
  "$args.x.__proto__",
  "$args.body",
  "$args.id.body",
  "$args.input",
  "$args.id.input",
  "$unbound.x",
  "$labelId",
  '{ "a": $args.fn }',
  '{ "1": $args.n, "b": $args.n, "0": 2 }',
];

/** Values each bound name takes in turn: every JSON kind, arrays (which paths map) and what is not JSON. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  7,
  "",
  "abc",
  true,
  false,
  {},
  { id: "a", limit: 10, x: { y: 1 }, s: "s", n: 3 },
  { id: ["one"], x: [{ y: 1 }, { y: 2 }], s: [] },
  { x: { y: [1] }, title: "t" },
  { x: { y: { z: "deep" } } },
  ["a"],
  [{ id: "a" }],
  Object.create(null),
  Object.assign(Object.create(null), { id: "bare", x: { y: 2 } }),
  new Date(0),
  { fn: () => 1, id: () => 2 },
  { id: "x".repeat(50) },
  Number.NaN,
  { id: Number.POSITIVE_INFINITY, n: -0 },
  // A jsonata lambda is a plain object with its own keys (`body`, `arguments`): a path reads none of them.
  await jsonata("function($v) { $v }").evaluate({}),
  { id: await jsonata("function($v) { $v }").evaluate({}) },
];

const bindingsWith = (value: unknown): Record<string, unknown> => ({
  args: value,
  state: { counter: value, note: value === undefined ? undefined : { title: value } },
  labelId: (label: string) => label,
});

describe("JSONata expressions read directly", () => {
  it("give jsonata's result exactly for every value they do not decline", async () => {
    let direct = 0;
    for (const source of EXPRESSIONS) {
      const read = directEvaluator(jsonata(source).ast(), 20);
      for (const value of VALUES) {
        const bindings = bindingsWith(value);
        const expected = await jsonata(source)
          .evaluate({}, bindings)
          .catch((error: Error) => ({ threw: error.message }));
        const got = read?.(bindings) ?? DECLINED;
        if (got === DECLINED) continue;
        direct++;
        expect({ source, value, got }).toStrictEqual({ source, value, got: expected });
      }
    }
    // Most pairs are read directly: the comparison above is not vacuous.
    expect(direct).toBeGreaterThan(EXPRESSIONS.length * 5);
  });

  it("are the answers most handlers give, and decline what jsonata treats specially", () => {
    const read = directEvaluator(jsonata('{ "id": $args.id, "counter": $state.counter }').ast(), 100);
    expect(read?.({ args: { id: "a" }, state: { counter: 7 } })).toStrictEqual(Object.assign(Object.create(null), { id: "a", counter: 7 }));
    // A path through an array maps and flattens, a one-item result is its item: jsonata's to do.
    expect(read?.({ args: { id: ["a"] }, state: { counter: 7 } })).toBe(DECLINED);
    expect(read?.({ args: { id: "a" } })).toBe(DECLINED);
    for (const source of ["$args.items[0]", "$state.counter + 1", "$", "$$.a", '{ "a": 1, "a": 2 }', '{ "__proto__": $args }', "[$args.id]", "$count($state)"])
      expect(directEvaluator(jsonata(source).ast(), 100)).toBeUndefined();
  });

  it("leave a string past the expression's cap to jsonata's limit", async () => {
    const compiled = compileExpression("$args.s", { maxStringLength: 5 });
    if (!compiled.ok) expect.fail("expected the expression to compile");
    const guard = new RunGuard();
    await expect(compiled.expression.evaluate({}, { args: { s: "short" } }, guard)).resolves.toBe("short");
    await expect(compiled.expression.evaluate({}, { args: { s: "too long" } }, guard)).rejects.toMatchObject({ reason: "too-large" });
  });

  it("answer a handler run as jsonata alone answers it", async () => {
    const source = '{ "id": $args.id, "tags": $args.tags, "note": $state.notes, "n": $state.counter }';
    for (const args of [{ id: "a", tags: ["only"] }, { id: "a", tags: "one" }, { id: { nested: true } }]) {
      const input = inputOf({ args });
      const run = await runJsonataHandler(handlerOf(source), input);
      const alone = toPlainJson(await jsonata(source).evaluate(args, { args, state: input.state }));
      expect(run).toStrictEqual({ kind: "answer", value: alone, isError: false, set: {} });
    }
  });

  it("still stop a run whose time is up or whose client went away", async () => {
    const aborted = new AbortController();
    aborted.abort();
    await expect(runJsonataHandler(handlerOf("$args.id"), inputOf({ args: { id: "a" } }), { signal: aborted.signal })).rejects.toMatchObject({
      code: "E_HANDLER_ABORTED",
    });
  });
});
