import { describe, expect, it } from "vitest";
import { badCalls, validCall } from "../../engine/tools/checks/check-bad-calls.js";

describe("calls made up from an input schema", () => {
  const schema = {
    type: "object",
    properties: {
      to: { type: "string", format: "email" },
      station: { type: "string", pattern: "^[A-Z]{4}$" },
      days: { type: "integer", minimum: 1, maximum: 7 },
      units: { enum: ["metric", "imperial"] },
      tags: { $ref: "#/$defs/Tags" },
      any: {},
    },
    required: ["to", "station", "days", "tags"],
    additionalProperties: false,
    $defs: { Tags: { type: "array", minItems: 1, items: { type: "string" } } },
  };

  it("makes a valid call from each required argument's format, pattern, bounds and $ref", () => {
    expect(validCall(schema)).toEqual({ to: "someone@example.com", station: "ABCD", days: 1, tags: ["x"] });
  });

  it("leaves out each required argument, adds an undeclared one to a closed schema, and mistypes each typed one", () => {
    const whys = badCalls(schema).map((call) => call.why);
    expect(whys).toEqual([
      'the required argument "to" left out',
      'the required argument "station" left out',
      'the required argument "days" left out',
      'the required argument "tags" left out',
      'an undeclared argument "eval_simulate_undeclared"',
      '"to" given a number where the schema says string',
      '"station" given a number where the schema says string',
      '"days" given a string where the schema says integer',
      '"units" given a number where the schema says string',
      '"tags" given a string where the schema says array',
    ]);
    expect(badCalls(schema)[7].args).toEqual({ to: "someone@example.com", station: "ABCD", days: "eval-simulate: not the declared type", tags: ["x"] });
  });

  it("adds no undeclared argument where the schema is open, and none matching its patternProperties", () => {
    expect(badCalls({ type: "object", properties: {} })).toEqual([]);
    const patterned = badCalls({ type: "object", additionalProperties: false, patternProperties: { "^eval_": {} } });
    expect(patterned[0].why).toBe('an undeclared argument "eval-simulate-undeclared"');
  });
});
