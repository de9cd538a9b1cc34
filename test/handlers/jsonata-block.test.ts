import { describe, expect, it } from "vitest";
import { type JsonataHandlerSpec, runJsonataHandler } from "../../engine/author/handlers/jsonata-index.js";
import { handlerOf, inputOf } from "./jsonata-input.js";

describe("a JSONata handler's bindings", () => {
  it("binds $args, $state, $world, $now (a value), $scenario, and the arguments as the context", async () => {
    const handler = handlerOf(
      '{ "title": $args.title, "bare": title, "notes": $count($state.notes), "events": $world.calendar.events.id, "now": $now, "scenario": $scenario }',
    );
    const result = await runJsonataHandler(handler, inputOf({ args: { title: "Hi" } }));
    expect(result).toEqual({
      kind: "answer",
      value: { title: "Hi", bare: "Hi", notes: 1, events: "e1", now: "2025-03-14T09:00:00.000Z", scenario: "quiet" },
      isError: false,
      set: {},
    });
  });

  it("binds $request instead of $args for an API handler", async () => {
    const handler = handlerOf('{ "status": 200, "body": { "path": $request.path, "q": $request.query.q, "args": $exists($args) } }');
    const result = await runJsonataHandler(handler, inputOf({ args: undefined, request: { method: "GET", path: "/x", query: { q: "1" } } }));
    expect(result).toMatchObject({ kind: "answer", value: { status: 200, body: { path: "/x", q: "1", args: false } } });
  });

  it("answers $millis() from the fake's clock, not the wall clock", async () => {
    const result = await runJsonataHandler(handlerOf("$millis()"), inputOf());
    expect(result).toMatchObject({ value: Date.parse("2025-03-14T09:00:00.000Z") });
  });

  it("derives ids with $labelId", async () => {
    const result = await runJsonataHandler(handlerOf('$labelId("note-" & $string($args.n))'), inputOf({ args: { n: 2 } }));
    expect(result).toMatchObject({ value: "id:note-2" });
  });

  it("journals $log's value and returns it", async () => {
    const input = inputOf();
    const result = await runJsonataHandler(handlerOf('$log({ "seen": $state.notes.id }).seen & "!"'), input);
    expect(result).toMatchObject({ value: "note-1!" });
    expect(input.logged).toEqual([{ seen: "note-1" }]);
  });
});

describe("a JSONata block", () => {
  it("evaluates each let in order, each seeing those before it, all visible to the later parts", async () => {
    const handler = handlerOf({
      let: { n: "$count($state.notes) + 1", id: '"note-" & $string($n)', title: '$id & ": " & $args.title' },
      fail: [{ if: '$id = "note-1"', message: '"impossible"' }],
      set: { notes: '$append($state.notes, [{ "id": $id, "title": $title }])' },
      return: '{ "id": $id, "n": $n }',
      isError: "$n > 5",
    });
    const result = await runJsonataHandler(handler, inputOf({ args: { title: "Plan" } }));
    expect(result).toEqual({
      kind: "answer",
      value: { id: "note-2", n: 2 },
      isError: false,
      set: {
        notes: [
          { id: "note-1", title: "Kickoff", tags: ["a", "b"] },
          { id: "note-2", title: "note-2: Plan" },
        ],
      },
    });
  });

  it("lets a let bind a function for the parts after it", async () => {
    const handler = handlerOf({ let: { shout: 'function($s){ $uppercase($s) & "!" }' }, return: "$shout($args.title)" });
    expect(await runJsonataHandler(handler, inputOf({ args: { title: "hey" } }))).toMatchObject({ value: "HEY!" });
  });

  it("ends the call with the first guard that holds, and evaluates neither set nor return", async () => {
    const input = inputOf({ args: { title: "" } });
    const handler = handlerOf({
      fail: [
        { if: "$args.nope", message: '"not this one"' },
        { if: '$args.title = ""', message: '"A note needs a title"' },
        { if: "true", message: '"nor this one"' },
      ],
      set: { notes: '$log("set ran")' },
      return: '$log("return ran")',
    });
    expect(await runJsonataHandler(handler, input)).toEqual({ kind: "fail", message: "A note needs a title" });
    expect(input.logged).toEqual([]);
  });

  it("builds a guard's message from an expression", async () => {
    const handler = handlerOf({ fail: [{ if: "$args.n > 3", message: '"At most 3, got " & $string($args.n)' }], return: "true" });
    expect(await runJsonataHandler(handler, inputOf({ args: { n: 5 } }))).toEqual({ kind: "fail", message: "At most 3, got 5" });
    expect(await runJsonataHandler(handler, inputOf({ args: { n: 2 } }))).toMatchObject({ kind: "answer", value: true });
  });

  it("computes every entity of set from the state before the call, and mutates nothing", async () => {
    const input = inputOf();
    const handler = handlerOf({
      set: { counter: "$state.counter + 1", notes: '[{ "id": "c" & $string($state.counter) }]' },
      return: "$state.counter",
    });
    const result = await runJsonataHandler(handler, input);
    expect(result).toEqual({ kind: "answer", value: 1, isError: false, set: { counter: 2, notes: [{ id: "c1" }] } });
    expect(input.state.counter).toBe(1);
  });

  it("binds $next, the state after set, in return and isError", async () => {
    const handler = handlerOf({
      set: { counter: "$state.counter + 10" },
      return: '{ "before": $state.counter, "after": $next.counter, "notes": $count($next.notes) }',
      isError: "$next.counter > 5",
    });
    expect(await runJsonataHandler(handler, inputOf())).toEqual({
      kind: "answer",
      value: { before: 1, after: 11, notes: 1 },
      isError: true,
      set: { counter: 11 },
    });
  });

  it("sends the answer as a tool error when isError holds, keeping set to commit", async () => {
    const handler = handlerOf({
      set: { attempts: "$append($state.attempts, [$args.action])" },
      return: '"Refused: " & $args.action',
      isError: "$not($args.confirmed)",
    });
    const refused = await runJsonataHandler(handler, inputOf({ args: { action: "delete", confirmed: false } }));
    expect(refused).toEqual({ kind: "answer", value: "Refused: delete", isError: true, set: { attempts: ["delete"] } });
    const accepted = await runJsonataHandler(handler, inputOf({ args: { action: "delete", confirmed: true } }));
    expect(accepted).toMatchObject({ isError: false });
  });

  it("answers null when set is all there is", async () => {
    const result = await runJsonataHandler(handlerOf({ set: { counter: "0" } }), inputOf());
    expect(result).toEqual({ kind: "answer", value: null, isError: false, set: { counter: 0 } });
  });

  it("answers null when the answer expression yields nothing", async () => {
    const result = await runJsonataHandler(handlerOf('$state.notes[id = "missing"]'), inputOf());
    expect(result).toMatchObject({ kind: "answer", value: null });
  });

  it("keeps an array entity an array when a filter leaves one item or none", async () => {
    const two = { notes: [{ id: "a" }, { id: "b" }] };
    const remove = handlerOf({ set: { notes: "$state.notes[id != $args.id]" }, return: "$count($next.notes)" });
    const one = await runJsonataHandler(remove, inputOf({ state: two, args: { id: "a" } }));
    expect(one).toMatchObject({ value: 1, set: { notes: [{ id: "b" }] } });
    const none = await runJsonataHandler(remove, inputOf({ state: { notes: [{ id: "a" }] }, args: { id: "a" } }));
    expect(none).toMatchObject({ value: 0, set: { notes: [] } });
  });

  it("sets an entity to null when its expression yields nothing and it was not an array", async () => {
    const result = await runJsonataHandler(handlerOf({ set: { current: "$args.missing" } }), inputOf({ state: { current: "x" } }));
    expect(result).toMatchObject({ set: { current: null } });
  });
});

describe("$notImplemented", () => {
  const message = { kind: "fail", message: "This fake does not implement sorting by date" };

  it("ends the call as a tool error from the expression form", async () => {
    expect(await runJsonataHandler(handlerOf('$args.sort ? $notImplemented("sorting by date") : []'), inputOf({ args: { sort: true } }))).toEqual(message);
  });

  it("ends the call from let, a guard, set and return alike, with nothing to commit", async () => {
    const parts: JsonataHandlerSpec[] = [
      { let: { x: '$notImplemented("sorting by date")' }, return: "1" },
      { fail: [{ if: '$notImplemented("sorting by date")', message: '"x"' }], return: "1" },
      { fail: [{ if: "true", message: '$notImplemented("sorting by date")' }], return: "1" },
      { set: { notes: '$notImplemented("sorting by date")' }, return: "1" },
      { set: { counter: "2" }, return: '$notImplemented("sorting by date")' },
      { return: "1", isError: '$notImplemented("sorting by date")' },
    ];
    for (const spec of parts) expect(await runJsonataHandler(handlerOf(spec), inputOf())).toEqual(message);
  });

  it("ends the call from inside a function and from $eval", async () => {
    expect(await runJsonataHandler(handlerOf('$map([1], function($v){ $notImplemented("sorting by date") })'), inputOf())).toEqual(message);
    expect(await runJsonataHandler(handlerOf("$eval('$notImplemented(\"sorting by date\")')"), inputOf())).toEqual(message);
  });
});
