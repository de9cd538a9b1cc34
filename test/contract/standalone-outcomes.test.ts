import { describe, expect, it, vi } from "vitest";
import type { CompileOutcome } from "../../engine/author/contract/index.js";

type Contract = typeof import("../../engine/author/contract/index.js");

/** A fresh copy of the contract folder: its own compiled-by-text and trusted maps, as a new process has. */
async function freshContract(): Promise<Contract> {
  vi.resetModules();
  return import("../../engine/author/contract/index.js");
}

/** Schemas that exercise what ajv's generated code refers to: formats, patterns, refs, const, lengths, each engine. */
const SCHEMAS: Array<Record<string, unknown>> = [
  {
    type: "object",
    required: ["id", "email"],
    properties: {
      id: { type: "string", format: "uuid" },
      email: { type: "string", format: "email" },
      at: { type: "string", format: "date-time", formatMinimum: "2020-01-01T00:00:00Z" },
      code: { type: "string", pattern: "^[A-Z]{3}-\\d+$", maxLength: 8 },
      kind: { const: { a: [1, 2] } },
      tags: { type: "array", items: { enum: ["x", "y"] }, uniqueItems: true },
      home: { type: "string", format: "uri" },
    },
    additionalProperties: false,
  },
  { $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", prefixItems: [{ type: "string" }], items: { type: "number", maximum: 3 } },
  { $schema: "https://json-schema.org/draft/2019-09/schema", type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: false },
  { definitions: { node: { type: "object", properties: { next: { $ref: "#/definitions/node" }, v: { type: "integer" } } } }, $ref: "#/definitions/node" },
  { type: "object", patternProperties: { "^x-": { type: "number" } }, propertyNames: { pattern: "^(x-|name$)" } },
  {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://example.test/tree",
    $dynamicAnchor: "node",
    type: "object",
    properties: { kids: { type: "array", items: { $dynamicRef: "#node" } }, v: { type: "integer" } },
  },
  {
    $schema: "https://json-schema.org/draft/2019-09/schema",
    $id: "https://example.test/tree-2019",
    $recursiveAnchor: true,
    type: "object",
    properties: { kids: { type: "array", items: { $recursiveRef: "#" } }, v: { type: "integer" } },
  },
  { $id: "https://example.test/a", definitions: { b: { $id: "b", type: "string", minLength: 2 } }, properties: { x: { $ref: "b" } } },
  // From JSON text: an object literal with a `then` key reads as a thenable to the linter.
  JSON.parse('{"type":"object","if":{"properties":{"a":{"const":1}}},"then":{"required":["c"]},"else":{"required":["d"]},"dependencies":{"a":["b"]}}'),
  { type: "array", contains: { type: "number" }, maxItems: 4, items: { type: ["number", "string"], format: "ipv4" } },
];

const VALUES: unknown[] = [
  { id: "not-a-uuid", email: "no", at: "2019-05-01T00:00:00Z", code: "ab-1", kind: { a: [1] }, tags: ["x", "x", "z"], home: "::", extra: 1 },
  { id: "9a1f3c4e-8d2b-4c6a-9e5f-1b2c3d4e5f60", email: "ada@example.com", code: "ABC-12", kind: { a: [1, 2] }, tags: ["x"] },
  ["a", 1, 5, "b"],
  { a: "x", b: 2 },
  { v: 1, next: { v: "two", next: { v: 3 } } },
  { "x-a": 1, "x-b": "no", other: true },
  "𝒳𝒴",
  null,
  { v: 1, kids: [{ v: "x" }, { v: 2, kids: [{ v: 1.5 }] }] },
  { x: "a", a: 1 },
  { a: 2, d: 1 },
  [1, "1.2.3.4", "no", 3, 4],
];

/** Every schema's answer to every value: valid, issues and errorsText. */
function answers(contract: Contract): unknown[] {
  const compiler = contract.createSchemaCompiler();
  return SCHEMAS.flatMap((schema) => {
    const compiled = compiler.compile(structuredClone(schema));
    return VALUES.map((value) => ({ valid: compiled.validate(value), issues: compiled.issues(), text: compiled.errorsText() }));
  });
}

/** Compiles every schema while recording, as a manifest check on a cache miss does. */
function recorded(contract: Contract): { answers: unknown[]; outcomes: Record<string, CompileOutcome> } {
  const recording = contract.recordCompileOutcomes();
  const given = answers(contract);
  return { answers: given, outcomes: recording.stop() };
}

describe("compile outcomes with the validators' standalone code", () => {
  it("records ajv's standalone code for each schema compiled while a check records", async () => {
    const { outcomes } = recorded(await freshContract());
    expect(Object.keys(outcomes)).toHaveLength(SCHEMAS.length);
    for (const outcome of Object.values(outcomes)) expect(outcome.code).toMatch(/module\.exports = validate/);
  });

  it("answers every value from the kept code exactly as the compiled validator does, errors and their text included", async () => {
    const { answers: compiled, outcomes } = recorded(await freshContract());
    const later = await freshContract();
    later.trustCompileOutcomes(structuredClone(outcomes));
    expect(answers(later)).toEqual(compiled);
  });

  it("runs the kept code rather than compiling: a change to it shows in the answers", async () => {
    const { outcomes } = recorded(await freshContract());
    const changed = Object.fromEntries(
      Object.entries(outcomes).map(([hash, outcome]) => [
        hash,
        { ...outcome, code: outcome.code?.replaceAll("must NOT have more than", "kept code: at most") },
      ]),
    );
    const later = await freshContract();
    later.trustCompileOutcomes(changed);
    const compiled = later.createSchemaCompiler().compile(structuredClone(SCHEMAS[0]));
    expect(compiled.validate({ id: "9a1f3c4e-8d2b-4c6a-9e5f-1b2c3d4e5f60", email: "ada@example.com", code: "ABC-123456" })).toBe(false);
    expect(compiled.errorsText()).toBe("data/code kept code: at most 8 characters");
  });

  it("compiles the schema after all when the kept code does not define a validator", async () => {
    const { answers: compiled, outcomes } = recorded(await freshContract());
    const broken = Object.fromEntries(Object.entries(outcomes).map(([hash, outcome]) => [hash, { ...outcome, code: "module.exports = 42;" }]));
    const later = await freshContract();
    later.trustCompileOutcomes(broken);
    expect(answers(later)).toEqual(compiled);
  });

  it("keeps no code once a recording's budget is spent, and the outcome still holds", async () => {
    const contract = await freshContract();
    const { noteCompileOutcome, MAX_RECORDED_CODE } = await import("../../engine/author/contract/compile-outcomes.js");
    const recording = contract.recordCompileOutcomes();
    noteCompileOutcome("a", { warnings: [], notes: [], code: "x".repeat(MAX_RECORDED_CODE - 10) });
    noteCompileOutcome("b", { warnings: ["w"], notes: [], code: "y".repeat(20) });
    const outcomes = Object.values(recording.stop());
    expect(outcomes.map((outcome) => outcome.code?.length)).toEqual([MAX_RECORDED_CODE - 10, undefined]);
    expect(outcomes[1]).toEqual({ warnings: ["w"], notes: [] });
  });
});
