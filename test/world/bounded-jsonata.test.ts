import { describe, expect, it } from "vitest";
import { compileBounded, toPlainJson } from "../../engine/author/world/index.js";

describe("compileBounded", () => {
  it("points a syntax error at the start of the offending token, not past its end", () => {
    const offsets = ["foo bar", "ab cd ef", "1 = = 2", "(1,2"].map((source) => {
      const result = compileBounded(source);
      return "problem" in result ? result.problem.offset : undefined;
    });
    expect(offsets).toEqual([4, 3, 4, 2]);
  });

  it("points an unexpected end of the expression at its end", () => {
    const result = compileBounded("1 +");
    expect("problem" in result && result.problem).toMatchObject({ code: "S0207", offset: 3 });
  });
});

describe("toPlainJson", () => {
  it("drops the sequence flag from arrays and copies deeply", () => {
    const sequence = Object.assign([1, [2]], { sequence: true });
    const plain = toPlainJson({ list: sequence }) as { list: unknown[] };
    expect(Object.keys(plain.list)).toEqual(["0", "1"]);
    expect(plain.list).not.toBe(sequence);
  });

  it("drops undefined keys and turns undefined items into null, as JSON does", () => {
    expect(toPlainJson({ a: undefined, b: [undefined, 1] })).toEqual({ b: [null, 1] });
  });

  it("refuses functions, non-finite numbers and cycles, naming where", () => {
    expect(() => toPlainJson({ f: () => 1 })).toThrow("a function at f is not a JSON value");
    expect(() => toPlainJson([Infinity])).toThrow("the number Infinity at [0] is not a JSON value");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => toPlainJson(cyclic)).toThrow("a circular reference at self is not a JSON value");
  });
});
