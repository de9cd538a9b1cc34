import { describe, expect, it } from "vitest";
import { parseElicited } from "../../engine/eval/hosts/user-answers.js";

// How a simulated user's reply becomes an elicitation's answer.
const FORM = { properties: { username: { type: "string" }, email: { type: "string" } } };

describe("reading a simulated user's reply as an elicitation's answer", () => {
  it("accepts a JSON object, bare or fenced, as the form's content", () => {
    expect(parseElicited('{"username":"ada","email":"a@x.io"}', FORM)).toEqual({ action: "accept", content: { username: "ada", email: "a@x.io" } });
    expect(parseElicited('Sure:\n```json\n{"username":"ada"}\n```', FORM)).toEqual({ action: "accept", content: { username: "ada" } });
  });

  it("takes plain text as a one-field form's value, typed by its schema", () => {
    expect(parseElicited("Ada", { properties: { name: { type: "string" } } })).toEqual({ action: "accept", content: { name: "Ada" } });
    expect(parseElicited("3", { properties: { seats: { type: "integer" } } })).toEqual({ action: "accept", content: { seats: 3 } });
    expect(parseElicited("yes", { properties: { confirm: { type: "boolean" } } })).toEqual({ action: "accept", content: { confirm: true } });
  });

  it("declines a refusal, nothing, or text it cannot put in a form", () => {
    expect(parseElicited("decline", FORM)).toEqual({ action: "decline" });
    expect(parseElicited(undefined, FORM)).toEqual({ action: "decline" });
    expect(parseElicited("I'd rather not say", FORM)).toEqual({ action: "decline" });
    expect(parseElicited("many", { properties: { seats: { type: "number" } } })).toEqual({ action: "decline" });
  });
});
