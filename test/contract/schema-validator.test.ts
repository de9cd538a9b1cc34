import { describe, expect, it } from "vitest";
import { createSchemaCompiler } from "../../engine/author/contract/index.js";

describe("createSchemaCompiler", () => {
  it("reports every error in ajv's errorsText wording, with issues naming each path", () => {
    const schema = {
      type: "object",
      required: ["x"],
      properties: { limit: { type: "number", maximum: 50 } },
    };
    const compiled = createSchemaCompiler().compile(schema);
    expect(compiled.validate({ limit: 60 })).toBe(false);
    expect(compiled.errorsText()).toBe("data must have required property 'x', data/limit must be <= 50");
    expect(compiled.issues()).toEqual([
      { path: "", message: "must have required property 'x'", keyword: "required", params: { missingProperty: "x" } },
      { path: "/limit", message: "must be <= 50", keyword: "maximum", params: { comparison: "<=", limit: 50 } },
    ]);
    expect(compiled.validate({ x: 1, limit: 5 })).toBe(true);
    expect(compiled.errorsText()).toBe("");
    expect(compiled.issues()).toEqual([]);
  });

  it("enforces formats", () => {
    const compiled = createSchemaCompiler().compile({ type: "string", format: "email" });
    expect(compiled.validate("ada@example.com")).toBe(true);
    expect(compiled.validate("not an address")).toBe(false);
    expect(compiled.errorsText()).toBe('data must match format "email"');
  });

  it("ignores an unknown format and keeps ajv's warning instead of printing it", () => {
    const compiled = createSchemaCompiler().compile({ type: "string", format: "made-up" });
    expect(compiled.validate("anything")).toBe(true);
    expect(compiled.warnings.join("\n")).toContain('unknown format "made-up" ignored');
  });

  it("treats a schema with no $schema as draft-07, where prefixItems is not a keyword", () => {
    const compiled = createSchemaCompiler().compile({ type: "array", prefixItems: [{ type: "string" }] });
    expect(compiled.dialect).toBe("draft-07");
    expect(compiled.validate([1])).toBe(true);
  });

  it("honours a 2020-12 $schema (prefixItems)", () => {
    const compiled = createSchemaCompiler().compile({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "string" }],
      items: false,
    });
    expect(compiled.dialect).toBe("2020-12");
    expect(compiled.validate(["a"])).toBe(true);
    expect(compiled.validate([1])).toBe(false);
    expect(compiled.validate(["a", "b"])).toBe(false);
  });

  it("honours a 2019-09 $schema and draft-07's tuple items under draft-06", () => {
    const compiler = createSchemaCompiler();
    const v2019 = compiler.compile({
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "object",
      properties: { a: { type: "string" } },
      unevaluatedProperties: false,
    });
    expect(v2019.dialect).toBe("2019-09");
    expect(v2019.validate({ a: "x" })).toBe(true);
    expect(v2019.validate({ a: "x", b: 1 })).toBe(false);
    const draft06 = compiler.compile({ $schema: "http://json-schema.org/draft-06/schema#", items: [{ type: "string" }] });
    expect(draft06.dialect).toBe("draft-06");
    expect(draft06.validate([1])).toBe(false);
  });

  it("reads draft-04's boolean exclusiveMaximum", () => {
    const schema = { $schema: "http://json-schema.org/draft-04/schema#", type: "number", maximum: 5, exclusiveMaximum: true };
    const compiled = createSchemaCompiler().compile(schema);
    expect(compiled.validate(4.9)).toBe(true);
    expect(compiled.validate(5)).toBe(false);
    expect(schema.exclusiveMaximum).toBe(true);
  });

  it("can default to 2020-12 as the MCP SDK does", () => {
    const compiled = createSchemaCompiler({ defaultDialect: "2020-12" }).compile({ prefixItems: [{ type: "string" }] });
    expect(compiled.validate([1])).toBe(false);
  });

  it("refuses a dialect ajv cannot validate", () => {
    expect(() => createSchemaCompiler().compile({ $schema: "http://json-schema.org/draft-03/schema#" })).toThrow(
      /^\[eval-simulate\] unsupported JSON Schema dialect/,
    );
  });

  it("throws an error saying what is wrong with a schema that does not compile", () => {
    const compiler = createSchemaCompiler();
    expect(() => compiler.compile({ type: "strin" })).toThrow(/^\[eval-simulate\] invalid JSON Schema: type must be JSONType/);
    expect(() => compiler.compile({ properties: { n: { minimum: "5" } } })).toThrow(/minimum value must be .*schema\/properties\/n\/minimum must be number/);
    expect(() => compiler.compile({ $ref: "#/$defs/Missing" })).toThrow(/can't resolve reference #\/\$defs\/Missing/);
  });

  it("refuses an $async schema, whose validator would answer a Promise", () => {
    expect(() => createSchemaCompiler().compile({ $async: true, type: "string" })).toThrow(/\$async schemas are not supported/);
  });

  it("keeps working after a schema failed to compile", () => {
    const compiler = createSchemaCompiler();
    const broken = { $id: "https://example.test/s", type: "strin" };
    expect(() => compiler.compile(broken)).toThrow();
    expect(compiler.compile({ $id: "https://example.test/s", type: "string" }).validate("x")).toBe(true);
  });

  it("validates two schemas with the same $id each by its own content", () => {
    const compiler = createSchemaCompiler();
    const strings = { $id: "https://example.test/value", type: "string" };
    const numbers = { $id: "https://example.test/value", type: "number" };
    const first = compiler.compile(strings);
    const second = compiler.compile(numbers);
    expect(first.validate("a")).toBe(true);
    expect(first.validate(1)).toBe(false);
    expect(second.validate(1)).toBe(true);
    expect(second.validate("a")).toBe(false);
  });

  it("resolves a nested $id within its own schema only", () => {
    const compiler = createSchemaCompiler();
    const inner = (type: string) => ({
      type: "object",
      properties: { kind: { $id: "https://example.test/kind", type }, copy: { $ref: "https://example.test/kind" } },
    });
    const strings = compiler.compile(inner("string"));
    const numbers = compiler.compile(inner("number"));
    expect(strings.validate({ copy: "a" })).toBe(true);
    expect(numbers.validate({ copy: 1 })).toBe(true);
    expect(numbers.validate({ copy: "a" })).toBe(false);
  });

  it("validates recursive schemas", () => {
    const compiled = createSchemaCompiler().compile({
      $id: "https://example.test/tree",
      type: "object",
      properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#" } } },
    });
    expect(compiled.validate({ value: 1, children: [{ value: 2, children: [] }] })).toBe(true);
    expect(compiled.validate({ value: 1, children: [{ value: "2" }] })).toBe(false);
    expect(compiled.issues()[0]?.path).toBe("/children/0/value");
  });

  it("compiles a schema object once", () => {
    const compiler = createSchemaCompiler();
    const schema = { type: "string" };
    expect(compiler.compile(schema)).toBe(compiler.compile(schema));
    expect(compiler.compile(schema)).not.toBe(createSchemaCompiler().compile(schema));
  });

  it("compiles boolean schemas", () => {
    const compiler = createSchemaCompiler();
    expect(compiler.compile(true).validate(1)).toBe(true);
    expect(compiler.compile(false).validate(1)).toBe(false);
  });
});
