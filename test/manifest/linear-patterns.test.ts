import { fromJsonSchema } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { createSchemaCompiler } from "../../engine/author/contract/index.js";
import { sdkSchemaValidator } from "../../engine/author/contract/schema-validator.js";
import { contractOf, toolsOf } from "../../engine/author/fakes/index.js";

/**
 * On JavaScript's engine each of these inputs backtracks for longer than the test's timeout (a
 * 2^50-step search); on RE2 each answers at once. A regression shows as a timed-out test.
 */
const EVIL = `${"a".repeat(50_000)}!`;

describe("patterns in compiled schemas", () => {
  it("runs a catastrophic pattern and patternProperties in linear time, with JavaScript's meaning", () => {
    const compiler = createSchemaCompiler({ defaultDialect: "2020-12" });
    const word = compiler.compile({ type: "string", pattern: "^(a+)+$" });
    expect(word.validate(EVIL)).toBe(false);
    expect(word.errorsText()).toBe('data must match pattern "^(a+)+$"');
    expect(word.validate("aaaa")).toBe(true);
    expect(word.patternNotes).toEqual([]);

    const keyed = compiler.compile({ type: "object", patternProperties: { "^(\\w+\\s?)*$": { type: "number" } } });
    expect(keyed.validate({ [`${"word ".repeat(40)}!`]: "not checked: the key does not match" })).toBe(true);
    expect(keyed.validate({ "two words": "x" })).toBe(false);

    const unicode = compiler.compile({ type: "string", pattern: "^\\p{Lu}\\d{2}$" });
    expect([unicode.validate("Ä12"), unicode.validate("a12")]).toEqual([true, false]);
  });

  it("runs lookaround on JavaScript's engine and notes it, and refuses one that also nests repetition", () => {
    const compiler = createSchemaCompiler();
    const password = compiler.compile({ type: "string", pattern: "^(?=.*\\d)[a-z0-9]{8,}$" });
    expect([password.validate("abcdefg1"), password.validate("abcdefgh")]).toEqual([true, false]);
    expect(password.patternNotes).toEqual([{ pattern: "^(?=.*\\d)[a-z0-9]{8,}$", reason: "lookaround" }]);

    const twice = compiler.compile({ type: "string", pattern: "^(\\w)\\1$" });
    expect([twice.validate("aa"), twice.validate("ab")]).toEqual([true, false]);
    expect(twice.patternNotes[0].reason).toBe("a backreference");

    expect(() => compiler.compile({ type: "string", pattern: "^(?=.*\\d)(\\w+\\s?)*$" })).toThrow(/repeats a repeated group \(\(\\w\+\\s\?\)\*\)/);
  });

  it("refuses what JavaScript refuses, even where RE2 has a meaning for it", () => {
    expect(() => createSchemaCompiler().compile({ type: "string", pattern: "(?i)abc" })).toThrow(/invalid JSON Schema/);
  });

  it("gives toolsOf's SDK schemas the same engine, with the SDK's error text", () => {
    const schema = fromJsonSchema(
      { type: "object", properties: { word: { type: "string", pattern: "^(a+)+$" } }, required: ["word"] } as never,
      sdkSchemaValidator(),
    );
    const validate = (value: unknown) => schema["~standard"].validate(value) as { issues?: Array<{ message: string }> };
    expect(validate({ word: EVIL }).issues?.[0].message).toMatch(/must match pattern/);
    expect(validate({ word: "aaa" }).issues).toBeUndefined();
    expect(validate({}).issues?.[0].message).toMatch(/must have required property 'word'/);
  });

  it("builds toolsOf's schemas as the SDK's fromJsonSchema does, without loading the SDK", () => {
    const inputSchema = { properties: { word: { type: "string", pattern: "^(a+)+$" } }, required: ["word"] };
    const outputSchema = { type: "object", properties: { n: { type: "integer" } } };
    const { config } = toolsOf(contractOf([{ name: "count", inputSchema, outputSchema }] as never, {}));
    const ours = config("count");
    const sdk = {
      input: fromJsonSchema({ type: "object", ...inputSchema } as never, sdkSchemaValidator()),
      output: fromJsonSchema(outputSchema as never, sdkSchemaValidator()),
    };
    for (const [mine, theirs] of [
      [ours.inputSchema, sdk.input],
      [ours.outputSchema!, sdk.output],
    ] as const) {
      const [a, b] = [mine["~standard"], theirs["~standard"]] as unknown as Array<{
        version: number;
        vendor: string;
        jsonSchema: { input(): unknown; output(): unknown };
        validate(value: unknown): unknown;
      }>;
      expect([a.version, a.vendor]).toEqual([b.version, b.vendor]);
      expect([a.jsonSchema.input(), a.jsonSchema.output()]).toEqual([b.jsonSchema.input(), b.jsonSchema.output()]);
      for (const value of [{ word: "aaa" }, { word: EVIL }, {}, { n: 1.5 }, { n: 2 }]) expect(a.validate(value)).toEqual(b.validate(value));
    }
  });
});
