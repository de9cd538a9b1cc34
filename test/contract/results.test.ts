import { describe, expect, it } from "vitest";
import { answerResult, notImplemented, structured, text } from "../../engine/author/contract/index.js";

describe("tool results", () => {
  it("text leaves isError out unless it is true", () => {
    expect(text("Saved")).toEqual({ content: [{ type: "text", text: "Saved" }] });
    expect("isError" in text("Saved", false)).toBe(false);
    expect(text("No such note", true)).toEqual({ content: [{ type: "text", text: "No such note" }], isError: true });
  });

  it("structured sends the value as structured content and its JSON as text", () => {
    expect(structured({ id: "n1" })).toEqual({ content: [{ type: "text", text: '{"id":"n1"}' }], structuredContent: { id: "n1" } });
  });

  it("structured refuses a value that is not an object", () => {
    expect(() => structured([1] as unknown as Record<string, unknown>)).toThrow(/^\[eval-simulate\] structured content must be an object, not an array/);
  });

  it("answerResult writes the value in the tool's format", () => {
    expect(answerResult({ format: "toon" }, { notes: [] })).toEqual({ content: [{ type: "text", text: "notes[0]:" }] });
    expect(answerResult({ format: "prefixed_json", prefix: "Result: " }, { ok: true })).toEqual({
      content: [{ type: "text", text: 'Result: {"ok":true}' }],
    });
  });

  it("answerResult answers a structured tool with structured content", () => {
    expect(answerResult({ format: "json", structured: true }, { id: "n1" })).toEqual(structured({ id: "n1" }));
  });

  it("notImplemented is the tool error naming what is missing", () => {
    expect(notImplemented("attachments")).toEqual({
      content: [{ type: "text", text: "This fake does not implement attachments" }],
      isError: true,
    });
  });
});
