import { describe, expect, it } from "vitest";
import { compileExpression, compileJsonataHandler, referencedBindings } from "../../engine/author/handlers/jsonata-index.js";
import { nestedRepetition } from "../../engine/author/handlers/jsonata-regex-check.js";

/** The text an error's span covers. */
function spanned(source: string, error: { offset?: number; length?: number }): string {
  return source.slice(error.offset, (error.offset ?? 0) + (error.length ?? 0));
}

describe("compiling a JSONata expression", () => {
  it("compiles once and evaluates many times", () => {
    const compiled = compileExpression('{ "id": $args.id }');
    expect(compiled.ok).toBe(true);
  });

  it("points a syntax error at the start of the offending token in a multi-line expression", () => {
    const source = '{\n  "id": $args.id,\n  "title": $args.title\n  "done": false\n}';
    const compiled = compileExpression(source);
    if (compiled.ok) expect.fail("expected a syntax error");
    expect(compiled.error.code).toBe("S0202");
    expect(compiled.error.offset).toBe(source.indexOf('"done"'));
    expect(spanned(source, compiled.error)).toBe('"done"');
    const before = source.slice(0, compiled.error.offset).split("\n");
    expect({ line: before.length, column: before.at(-1)!.length + 1 }).toEqual({ line: 4, column: 3 });
    expect(compiled.error.message).toMatch(/^Expected "}", got "done" \(S0202\)$/);
  });

  it.each([
    ["foo bar", "bar"],
    ["$f(1) $g", "$g"],
    ["a.b.]", "]"],
    ['"x" "yy"', '"yy"'],
    ['"x" "y\\"y"', '"y\\"y"'],
    ["1 = = 2", "="],
    ["12 `b c`", "`b c`"],
    ["a @ b", "@"],
    ["1e999", "1e999"],
    ["function(1){1}", "1"],
    ['"abc', '"abc'],
    ["a := 1", "a"],
  ])("spans the offending token of %j", (source, token) => {
    const compiled = compileExpression(source);
    if (compiled.ok) expect.fail("expected a syntax error");
    expect(spanned(source, compiled.error)).toBe(token);
  });

  it("points an unexpected end at the end of the text, before trailing whitespace", () => {
    const source = "$count($state.notes\n\n";
    const compiled = compileExpression(source);
    if (compiled.ok) expect.fail("expected a syntax error");
    expect(compiled.error).toMatchObject({ code: "S0203", offset: source.trimEnd().length, length: 0 });
  });

  it("refuses $now() with the call's position: $now is a string here", () => {
    const source = '{ "at": $now() }';
    const compiled = compileExpression(source);
    if (compiled.ok) expect.fail("expected an error");
    expect(compiled.error.code).toBe("E_NOW_CALL");
    expect(spanned(source, compiled.error)).toBe("$now");
  });

  it("refuses a regex that can backtrack without end, pointing at the literal", () => {
    const source = "$match($args.text, /^(\\w+\\s?)+$/i)";
    const compiled = compileExpression(source);
    if (compiled.ok) expect.fail("expected an error");
    expect(compiled.error.code).toBe("E_REGEX_BACKTRACK");
    expect(spanned(source, compiled.error)).toBe("/^(\\w+\\s?)+$/");
  });

  it.each(["(a+)+$", "(a*)*", "(?:x|y+)+", "((a+))+", "([a-z]+\\s*)*", "(a+){2,}"])("detects the nested repetition in /%s/", (regex) => {
    expect(nestedRepetition(regex)).toBeDefined();
  });

  it.each(["a+b+", "(\\d+,)*", "(a|b)+", "(a?)+", "[(a+)+]", "(ab+)+", "(\\s*,\\s*)+", "(a+){1}", "\\((a+)\\)+"])("accepts /%s/", (regex) => {
    expect(nestedRepetition(regex)).toBeUndefined();
  });

  it("lists the bindings an expression reads, not those it binds itself", () => {
    const compiled = compileExpression("($n := $count($state.notes); $map($args.ids, function($id){ $id & $string($n) }))");
    if (!compiled.ok) expect.fail("expected it to compile");
    expect(referencedBindings(compiled.expression)).toEqual(["args", "count", "map", "state", "string"]);
  });
});

describe("compiling a JSONata handler", () => {
  it("compiles the expression form", () => {
    const compiled = compileJsonataHandler('{ "notes": $state.notes }');
    expect(compiled.ok && compiled.handler.form).toBe("expression");
  });

  it("reports a syntax error of the expression form at the empty path", () => {
    const compiled = compileJsonataHandler("$state.notes[");
    expect(compiled).toMatchObject({ ok: false, errors: [{ path: [], code: "S0203", offset: 13, length: 0 }] });
  });

  it("reports every syntax error of a block at once, each with its part's path", () => {
    const compiled = compileJsonataHandler({
      let: { ok: "1", id: '"note-" &' },
      fail: [
        { if: "$args.a = ", message: '"fine"' },
        { if: "true", message: "A note needs a title" },
      ],
      set: { notes: "$append($state.notes," },
      return: "{ 'id': $id",
      isError: "$x ~>",
    });
    if (compiled.ok) expect.fail("expected errors");
    expect(compiled.errors.map((e) => e.path)).toEqual([["let", "id"], ["fail", 0, "if"], ["fail", 1, "message"], ["set", "notes"], ["return"], ["isError"]]);
    const message = compiled.errors.find((e) => e.path[1] === 1)!;
    expect(spanned("A note needs a title", message)).toBe("note");
    expect(message.message).toContain("quote text as a JSONata string");
    for (const error of compiled.errors) expect(error.offset).toEqual(expect.any(Number));
  });

  it("refuses a let that hides a built-in binding", () => {
    const compiled = compileJsonataHandler({ let: { state: "1", total: "2", now: "3" }, return: "$total" });
    expect(compiled).toMatchObject({
      ok: false,
      errors: [
        { path: ["let", "state"], code: "E_BLOCK_SHADOWS", message: expect.stringContaining("`$state`") },
        { path: ["let", "now"], code: "E_BLOCK_SHADOWS" },
      ],
    });
    if (!compiled.ok) for (const error of compiled.errors) expect(error.offset).toBeUndefined();
  });

  it("refuses a block with neither return nor set, saying what to add", () => {
    const compiled = compileJsonataHandler({ let: { a: "1" }, fail: [{ if: "true", message: '"x"' }] });
    expect(compiled).toMatchObject({ ok: false, errors: [{ path: [], code: "E_BLOCK_NO_EFFECT", message: expect.stringContaining("add `return:") }] });
  });

  it("refuses $next before set has run", () => {
    const compiled = compileJsonataHandler({ let: { n: "$count($next.notes)" }, set: { notes: "$next.notes" }, return: "$next" });
    expect(compiled).toMatchObject({
      ok: false,
      errors: [
        { path: ["let", "n"], code: "E_BLOCK_NEXT" },
        { path: ["set", "notes"], code: "E_BLOCK_NEXT" },
      ],
    });
  });

  it("accepts $next as a lambda's own parameter", () => {
    expect(compileJsonataHandler({ let: { f: "function($next){ $next + 1 }" }, return: "$f(1)" }).ok).toBe(true);
  });

  it("refuses a key a block does not have", () => {
    const compiled = compileJsonataHandler({ retrun: "1", set: { a: "1" } } as never);
    expect(compiled).toMatchObject({ ok: false, errors: [{ path: ["retrun"], code: "E_BLOCK_UNKNOWN_KEY" }] });
  });

  it("keeps the let bindings in the order written, and lists what set writes", () => {
    const compiled = compileJsonataHandler({ let: { z: "1", a: "$z", m: "$a" }, set: { notes: "[]", tags: "[]" }, return: "$m" });
    if (!compiled.ok) expect.fail("expected it to compile");
    expect(compiled.handler.let.map((l) => l.name)).toEqual(["z", "a", "m"]);
    expect(compiled.handler.writes).toEqual(["notes", "tags"]);
  });
});
