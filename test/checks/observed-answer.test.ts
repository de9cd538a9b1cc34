import { describe, expect, it } from "vitest";
import { observedAnswerProblems, type ObservedTool, REQUIRED_MIN_SAMPLES } from "../../engine/entries/checks.js";

const json = (sampled: number, schema: Record<string, unknown>): ObservedTool => ({ sampled, answer: { format: "json", schema } });
const text = (value: unknown) => ({ text: JSON.stringify(value) });

describe("an answer held to what the real server was observed to answer", () => {
  const note = { type: "object", required: ["id", "title"], additionalProperties: false, properties: { id: { type: "string" }, title: { type: "string" } } };

  it("holds a key every sample had only once the tool was sampled REQUIRED_MIN_SAMPLES times", () => {
    expect(REQUIRED_MIN_SAMPLES).toBe(3);
    expect(observedAnswerProblems(json(2, note), text({ id: "n-1" }))).toEqual([]);
    expect(observedAnswerProblems(json(3, note), text({ id: "n-1" }))).toEqual([
      "the answer must have required property 'title', unlike the real server's answers",
    ]);
  });

  it("allows an extra key, but never a wrong type or string format", () => {
    expect(observedAnswerProblems(json(5, note), text({ id: "n-1", title: "T", pinned: true }))).toEqual([]);
    expect(observedAnswerProblems(json(1, note), text({ id: 7, title: "T" }))).toEqual(["/id must be string, unlike the real server's answers"]);
    const dated = json(1, { type: "object", properties: { at: { type: "string", format: "date-time" } } });
    expect(observedAnswerProblems(dated, text({ at: "yesterday" }))).toEqual(['/at must match format "date-time", unlike the real server\'s answers']);
  });

  it("holds a masked key's value to x-masked-values after enough samples; a plain word key stays free", () => {
    const values = { type: "object", properties: { total: { type: "integer" } }, "x-masked-values": { type: "object", required: ["name"] } };
    const record = { total: 1, "3f2a9c1e-0000-4000-8000-000000000001": { name: "Acme" } };
    expect(observedAnswerProblems(json(3, values), text(record))).toEqual([]);
    expect(observedAnswerProblems(json(3, values), text({ total: 1, "Deal Stage": 5 }))).toEqual([
      "/Deal Stage must be object, unlike the real server's answers",
    ]);
    expect(observedAnswerProblems(json(3, values), text({ total: 1, owner: 5 }))).toEqual([]);
    expect(observedAnswerProblems(json(2, values), text({ total: 1, "Deal Stage": 5 }))).toEqual([]);
  });

  it("wants TOON written as the encoder writes it where every observed answer was", () => {
    const toon: ObservedTool = { sampled: 4, answer: { format: "toon", canonical: true } };
    expect(observedAnswerProblems(toon, { text: "notes[0]:" })).toEqual([]);
    expect(observedAnswerProblems(toon, { text: 'title: "Kickoff"' })[0]).toMatch(/not written as the TOON encoder writes it.*expected "title: Kickoff"/);
    expect(observedAnswerProblems({ sampled: 4, answer: { format: "toon" } }, { text: 'title: "Kickoff"' })).toEqual([]);
    expect(observedAnswerProblems(toon, { text: "notes[2]:\n  - a" })[0]).toMatch(/is not TOON/);
  });

  it("holds prefixed JSON to one of the observed prefixes and suffixes", () => {
    const sent: ObservedTool = { sampled: 3, answer: { format: "prefixed_json", prefixes: ["Email sent! ", "Email scheduled! "], suffix: " (queued)" } };
    expect(observedAnswerProblems(sent, { text: 'Email scheduled! {"id":"e-1"} (queued)' })).toEqual([]);
    expect(observedAnswerProblems(sent, { text: 'Sent: {"id":"e-1"} (queued)' })[0]).toMatch(
      /where the real server's answers started "Email sent! " or "Email scheduled! "/,
    );
    expect(observedAnswerProblems(sent, { text: 'Email sent! {"id":"e-1"}' })[0]).toMatch(/where the real server's answers ended " \(queued\)"/);
  });

  it("holds a text answer's first line to the observed prefixes, and reads a structured tool's structured content", () => {
    const email: ObservedTool = { sampled: 2, answer: { format: "text", prefix: "Email " } };
    expect(observedAnswerProblems(email, { text: "Email e-1\nFrom: a@b.c" })).toEqual([]);
    expect(observedAnswerProblems(email, { text: "Message e-1" })[0]).toMatch(
      /its first line "Message e-1" does not start as the real server's did \("Email "\)/,
    );
    const record: ObservedTool = { sampled: 3, answer: { format: "structured", schema: { type: "object", required: ["id"] } } };
    expect(observedAnswerProblems(record, { text: "{}", structured: { id: "r-1" } })).toEqual([]);
    expect(observedAnswerProblems(record, { text: "{}" })).toEqual(["it has no structured content, where the real server answered structured content"]);
  });

  it("only counts a mixed answer", () => {
    expect(observedAnswerProblems({ sampled: 9, answer: { format: "mixed" } }, { text: "anything" })).toEqual([]);
  });
});
