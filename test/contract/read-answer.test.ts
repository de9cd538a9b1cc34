import { describe, expect, it } from "vitest";
import { createSchemaCompiler, readAnswer, readResult, type AnswerSpec } from "../../engine/author/contract/index.js";

describe("readAnswer refuses text outside the answer's format", () => {
  it("bad JSON", () => {
    const reading = readAnswer({ format: "json" }, "{oops");
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.error).toMatch(/^the answer is not JSON: /);
    expect(reading.issues).toEqual([]);
  });

  it("TOON whose declared length is wrong, naming the line", () => {
    const reading = readAnswer({ format: "toon" }, "notes[2]:\n  - id: a");
    expect(reading).toMatchObject({ ok: false, error: expect.stringMatching(/^the answer is not TOON: .*Expected 2/) });
  });

  it("a missing prefix", () => {
    const reading = readAnswer({ format: "prefixed_json", prefix: "Result: " }, '{"ok":true}');
    expect(reading).toEqual({ ok: false, error: 'the answer does not start with its prefix "Result: ": "{\\"ok\\":true}"', issues: [] });
  });

  it("a wrong suffix", () => {
    const reading = readAnswer({ format: "prefixed_json", prefix: "<r>", suffix: "</r>" }, '<r>{"ok":true}</x>');
    expect(reading).toMatchObject({ ok: false, error: expect.stringMatching(/^the answer does not end with its suffix "<\/r>"/) });
  });

  it("text after the JSON where no suffix is declared", () => {
    const reading = readAnswer({ format: "prefixed_json", prefix: "Result: " }, 'Result: {"ok":true} (cached)');
    expect(reading).toMatchObject({ ok: false, error: expect.stringMatching(/^the answer is not JSON/) });
  });

  it("a prefix and suffix that overlap in a text too short for both", () => {
    const reading = readAnswer({ format: "prefixed_json", prefix: "ab", suffix: "bc" }, "abc");
    expect(reading).toMatchObject({ ok: false, error: expect.stringMatching(/does not end with its suffix/) });
  });
});

describe("readAnswer refuses a value outside the answer's schema", () => {
  const answer: AnswerSpec = {
    format: "json",
    schema: {
      type: "object",
      required: ["notes"],
      properties: {
        notes: { type: "array", items: { type: "object", required: ["id"], properties: { owner: { type: "string", format: "email" } } } },
      },
    },
  };

  it("naming the path of each violation", () => {
    const reading = readAnswer(answer, '{"notes":[{"title":"x"}]}');
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.error).toBe("the answer does not match its schema: data/notes/0 must have required property 'id'");
    expect(reading.issues).toEqual([{ path: "/notes/0", message: "must have required property 'id'", keyword: "required", params: { missingProperty: "id" } }]);
  });

  it("including a format violation", () => {
    const reading = readAnswer(answer, '{"notes":[{"id":"n1","owner":"nobody"}]}');
    expect(reading).toMatchObject({ ok: false, issues: [{ path: "/notes/0/owner", keyword: "format" }] });
  });

  it("for every format that carries a schema", () => {
    const toon: AnswerSpec = { ...answer, format: "toon" };
    expect(readAnswer(toon, "notes[1]:\n  - title: x")).toMatchObject({ ok: false, issues: [{ path: "/notes/0" }] });
    const prefixed: AnswerSpec = { ...answer, format: "prefixed_json", prefix: "> " };
    expect(readAnswer(prefixed, '> {"nope":1}')).toMatchObject({ ok: false, issues: [{ keyword: "required" }] });
  });

  it("honouring the schema's 2020-12 $schema", () => {
    const pair: AnswerSpec = {
      format: "json",
      schema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
    };
    expect(readAnswer(pair, '["a", 1]').ok).toBe(true);
    expect(readAnswer(pair, '[1, "a"]')).toMatchObject({ ok: false, issues: [{ path: "/0" }, { path: "/1" }] });
  });

  it("with a text answer, always reading the text", () => {
    expect(readAnswer({ format: "text" }, "{not json")).toEqual({ ok: true, value: "{not json" });
  });

  it("with a compiler the caller gives", () => {
    const compiler = createSchemaCompiler();
    expect(readAnswer(answer, '{"notes":[]}', { compiler })).toEqual({ ok: true, value: { notes: [] } });
  });

  it("keeping apart two answers whose schemas share an $id", () => {
    const strings: AnswerSpec = { format: "json", schema: { $id: "https://example.test/answer", type: "string" } };
    const numbers: AnswerSpec = { format: "json", schema: { $id: "https://example.test/answer", type: "number" } };
    expect(readAnswer(strings, '"a"').ok).toBe(true);
    expect(readAnswer(numbers, '"a"').ok).toBe(false);
    expect(readAnswer(numbers, "1").ok).toBe(true);
    expect(readAnswer(strings, "1").ok).toBe(false);
  });
});

describe("readResult reads the answer where the tool puts it", () => {
  const structuredEntry = {
    answer: { format: "json", schema: { type: "object", required: ["id"] }, structured: true } satisfies AnswerSpec,
  };
  const toonEntry = { answer: { format: "toon", schema: { type: "object", required: ["notes"] } } satisfies AnswerSpec };

  it("a structured tool from its structured content, ignoring the text", () => {
    expect(readResult(structuredEntry, { text: "not even json", structured: { id: "n1" } })).toEqual({ ok: true, value: { id: "n1" } });
    expect(readResult(structuredEntry, { text: '{"id":"n1"}', structured: { title: "x" } })).toMatchObject({
      ok: false,
      issues: [{ keyword: "required", params: { missingProperty: "id" } }],
    });
  });

  it("a structured tool whose result has no structured content is refused", () => {
    expect(readResult(structuredEntry, { text: '{"id":"n1"}' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no structured content/),
    });
  });

  it("any other tool from its text, ignoring structured content", () => {
    expect(readResult(toonEntry, { text: "notes[0]:", structured: { other: true } })).toEqual({ ok: true, value: { notes: [] } });
    expect(readResult(toonEntry, { structured: { notes: [] } })).toMatchObject({ ok: false, error: "the result has no text" });
  });
});
