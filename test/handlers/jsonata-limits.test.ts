import { describe, expect, it } from "vitest";
import { JsonataRuntimeError, runJsonataHandler } from "../../engine/author/handlers/jsonata-index.js";
import { handlerOf, inputOf } from "./jsonata-input.js";

const LOOP = "($f := function($n){ $f($n + 1) }; $f(0))";
const SLACK_MS = 1000;

async function failure(run: Promise<unknown>): Promise<JsonataRuntimeError> {
  const error = await run.then(
    (result) => expect.fail(`expected an error, got ${JSON.stringify(result)}`),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(JsonataRuntimeError);
  return error as JsonataRuntimeError;
}

/** Blocks the thread, as a slow synchronous function would. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe("a JSONata handler's time limit", () => {
  it("ends an endless loop as a timeout error soon after the limit, and the next call runs", async () => {
    const started = Date.now();
    const error = await failure(runJsonataHandler(handlerOf(LOOP), inputOf(), { timeoutMs: 300 }));
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ code: "E_HANDLER_TIMEOUT", jsonataCode: "D1012", path: [] });
    expect(error.message).toBe("[eval-simulate] the JSONata handler ran past its 300 ms limit");
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(elapsed).toBeLessThan(300 + SLACK_MS);
    expect(await runJsonataHandler(handlerOf("$count($state.notes)"), inputOf())).toMatchObject({ value: 1 });
  });

  it("ends an endless loop inside $eval too", async () => {
    const error = await failure(runJsonataHandler(handlerOf(`$eval('${LOOP}')`), inputOf(), { timeoutMs: 200 }));
    expect(error.code).toBe("E_HANDLER_TIMEOUT");
  });

  it("shares one deadline between the parts of a block", async () => {
    const slowLabel = (label: string) => {
      busy(150);
      return label;
    };
    const handler = handlerOf({ let: { a: '$labelId("a")' }, return: '$labelId("b") & $a' });
    const error = await failure(runJsonataHandler(handler, inputOf({ labelId: slowLabel }), { timeoutMs: 250 }));
    expect(error).toMatchObject({ code: "E_HANDLER_TIMEOUT", path: ["return"] });
    const onePart = handlerOf({ let: { a: '$labelId("a")' }, return: '"b" & $a' });
    expect(await runJsonataHandler(onePart, inputOf({ labelId: slowLabel }), { timeoutMs: 250 })).toMatchObject({ value: "ba" });
  });

  it("keeps the event loop turning while a runaway expression runs", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      await failure(runJsonataHandler(handlerOf(LOOP), inputOf(), { timeoutMs: 300 }));
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(5);
  });
});

describe("cancelling a JSONata handler", () => {
  it("ends a runaway expression when its signal aborts", async () => {
    const started = Date.now();
    const error = await failure(runJsonataHandler(handlerOf(LOOP), inputOf(), { timeoutMs: 30_000, signal: AbortSignal.timeout(100) }));
    expect(error.code).toBe("E_HANDLER_ABORTED");
    expect(Date.now() - started).toBeLessThan(100 + SLACK_MS);
  });

  it("does not start when its signal is already aborted", async () => {
    const error = await failure(runJsonataHandler(handlerOf("1"), inputOf(), { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ code: "E_HANDLER_ABORTED", message: "[eval-simulate] the JSONata handler was cancelled" });
  });
});

describe("a JSONata handler's depth and size limits", () => {
  const recursion = (n: number) => `($f := function($n){ $n = 0 ? 0 : 1 + $f($n - 1) }; $f(${n}))`;

  it("ends a deep recursion as a depth error, quickly and without filling the heap", async () => {
    const started = Date.now();
    const error = await failure(runJsonataHandler(handlerOf(recursion(100_000)), inputOf()));
    expect(error).toMatchObject({ code: "E_HANDLER_DEPTH", jsonataCode: "D1011" });
    expect(error.message).toContain("limit of 500");
    expect(Date.now() - started).toBeLessThan(SLACK_MS);
  });

  it("runs a modest recursion within the default depth", async () => {
    expect(await runJsonataHandler(handlerOf(recursion(50)), inputOf())).toMatchObject({ value: 50 });
  });

  it("takes a depth limit per run", async () => {
    const error = await failure(runJsonataHandler(handlerOf(recursion(50)), inputOf(), { maxDepth: 100 }));
    expect(error.message).toContain("limit of 100");
  });

  it.each([
    ["a huge range", "[1..10000000]", "a sequence of 10000000 items"],
    ["a range past jsonata's own cap", "$count([1..100000000])", "a sequence of 100000000 items"],
    ["a million-item $map", "$map([1..1000000], function($v){ $string($v) })", "a sequence of 1000000 items"],
    ["a string doubled until it is huge", '($f := function($s){ $f($s & $s) }; $f("x"))', "a string of 16777216 characters"],
    ["a huge $pad (a V8 fatal error unguarded)", '$pad("", 400000000)', "a string of 400000000 characters with $pad"],
    ["a huge $join", '($s := $pad("", 4000000, "x"); $join([$s, $s, $s]))', "a string of 12000000 characters with $join"],
    ["a huge $split (stopped one item past the cap)", '($s := $pad("", 200000, "x"); $count($split($s, "")))', "an array of 100001 items"],
  ])("ends %s as a size error", async (_name, expression, built) => {
    const error = await failure(runJsonataHandler(handlerOf(expression), inputOf(), { timeoutMs: 10_000 }));
    expect(error.code).toBe("E_HANDLER_TOO_LARGE");
    expect(error.message).toContain(`built ${built}`);
  });

  it("sorts a large array in linear memory (jsonata's own $sort is quadratic)", async () => {
    const numbers = handlerOf("$sort($map([1..100000], function($i){ 100000 - $i }))[[0, 99999]]");
    expect(await runJsonataHandler(numbers, inputOf(), { timeoutMs: 10_000 })).toMatchObject({ value: [0, 99999] });
    const byComparator = handlerOf("$sort($state.notes, function($a, $b){ $a.n > $b.n }).id");
    const state = {
      notes: [
        { id: "c", n: 3 },
        { id: "a", n: 1 },
        { id: "b1", n: 2 },
        { id: "b2", n: 2 },
      ],
    };
    expect(await runJsonataHandler(byComparator, inputOf({ state }))).toMatchObject({ value: ["a", "b1", "b2", "c"] });
    await expect(runJsonataHandler(handlerOf('$sort([1, "a"])'), inputOf())).rejects.toMatchObject({ jsonataCode: "D3070" });
  });
});

describe("a JSONata handler's runtime errors", () => {
  it("name the part and the offending token's offset", async () => {
    const source = '$state.counter + "x"';
    const error = await failure(runJsonataHandler(handlerOf({ set: { counter: source }, return: "1" }), inputOf()));
    expect(error).toMatchObject({ code: "E_JSONATA_RUNTIME", jsonataCode: "T2002", path: ["set", "counter"], offset: source.indexOf("+"), length: 1 });
    expect(error.message).toMatch(
      /^\[eval-simulate\] JSONata error in set\.counter at offset 15: The right side of the "\+" operator must evaluate to a number \(T2002\)$/,
    );
  });

  it("point a call of something that is not a function at its name", async () => {
    const source = "1 + $nope(2)";
    const error = await failure(runJsonataHandler(handlerOf(source), inputOf()));
    expect(error).toMatchObject({ jsonataCode: "T1006", path: [], offset: 4, length: 5 });
  });

  it("carry an error thrown by a bound function, such as $labelId given a number", async () => {
    const error = await failure(runJsonataHandler(handlerOf("$labelId(42)"), inputOf()));
    expect(error).toMatchObject({ code: "E_JSONATA_RUNTIME", offset: 0, length: 8, message: expect.stringContaining("takes a string") });
  });

  it("refuse a guard's message that yields nothing, saying to quote the text", async () => {
    const handler = handlerOf({ fail: [{ if: "true", message: "Missing" }], return: "1" });
    const error = await failure(runJsonataHandler(handler, inputOf()));
    expect(error).toMatchObject({ path: ["fail", 0, "message"], message: expect.stringContaining("quoted") });
  });
});
