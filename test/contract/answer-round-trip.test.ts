import { describe, expect, it } from "vitest";
import { encodeAnswer, readAnswer, type AnswerSpec } from "../../engine/author/contract/index.js";

const note = { id: "note-1", title: "Kickoff", tags: [], done: false, size: 3.5, owner: null };
const schema = {
  type: "object",
  required: ["notes"],
  properties: { notes: { type: "array", items: { type: "object", required: ["id"] } }, cursor: { type: ["string", "null"] } },
};
const value = { notes: [note, { ...note, id: "note-2", tags: ["a", "b"] }], cursor: null };

describe("an answer read back gives the value it was encoded from", () => {
  const answers: Array<[string, AnswerSpec]> = [
    ["json", { format: "json", schema }],
    ["toon", { format: "toon", schema }],
    ["prefixed_json with a prefix", { format: "prefixed_json", prefix: "Found notes: ", schema }],
    ["prefixed_json with a prefix and a suffix", { format: "prefixed_json", prefix: "<notes>", suffix: "</notes>", schema }],
    ["structured json", { format: "json", schema, structured: true }],
  ];
  for (const [name, answer] of answers) {
    it(name, () => {
      expect(readAnswer(answer, encodeAnswer(answer, value))).toEqual({ ok: true, value });
    });
  }

  it("text: a string as itself", () => {
    const answer: AnswerSpec = { format: "text" };
    expect(encodeAnswer(answer, "Kickoff\nReview")).toBe("Kickoff\nReview");
    expect(readAnswer(answer, "Kickoff\nReview")).toEqual({ ok: true, value: "Kickoff\nReview" });
  });

  it("text: any other value as its JSON", () => {
    expect(encodeAnswer({ format: "text" }, { a: 1 })).toBe('{"a":1}');
  });

  it("toon: an empty root array", () => {
    expect(encodeAnswer({ format: "toon" }, [])).toBe("[0]:");
    expect(readAnswer({ format: "toon" }, "[0]:")).toEqual({ ok: true, value: [] });
  });

  it("writes undefined as null in json, as TOON does", () => {
    expect(encodeAnswer({ format: "json" }, undefined)).toBe("null");
    expect(encodeAnswer({ format: "toon" }, { a: undefined })).toBe("a: null");
  });

  it("throws an [eval-simulate] error for a value JSON cannot write", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeAnswer({ format: "json" }, cyclic)).toThrow(/^\[eval-simulate\] the answer cannot be written as JSON/);
  });
});
