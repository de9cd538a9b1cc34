import { describe, expect, it } from "vitest";
import { contractEntry, defaultsOf, fillDefaults, nestedDefaults } from "../../engine/author/contract/index.js";

const inputSchema = {
  type: "object",
  properties: {
    query: { type: "string" },
    limit: { type: "number", default: 20 },
    fields: { type: "array", items: { type: "string", default: "id" }, default: ["id", "title"] },
    page: { type: "object", properties: { size: { type: "number", default: 10 } } },
    "a/b": { default: false },
    mode: { $ref: "#/$defs/Mode" },
    pick: { enum: [{ default: "data, not a keyword" }] },
  },
  $defs: { Mode: { type: "string", default: "fast" } },
  anyOf: [{ properties: { extra: { default: 1 } } }],
};

describe("contractEntry", () => {
  it("builds an entry with the tool's args, defaults and answer", () => {
    const tool = { name: "list-notes", inputSchema, annotations: { readOnlyHint: true } };
    const entry = contractEntry(tool, { format: "toon" });
    expect(entry).toEqual({
      name: "list-notes",
      tool,
      args: inputSchema,
      defaults: { limit: 20, fields: ["id", "title"], "a/b": false },
      answer: { format: "toon" },
    });
  });

  it("answers structured content checked against the outputSchema of a tool that states one", () => {
    const outputSchema = { type: "object", properties: { id: { type: "string" } } };
    const entry = contractEntry({ name: "get-note", inputSchema: { type: "object" }, outputSchema });
    expect(entry.answer).toEqual({ format: "json", schema: outputSchema, structured: true });
  });

  it("refuses an answer for a tool with an outputSchema", () => {
    expect(() => contractEntry({ name: "get-note", inputSchema: {}, outputSchema: { type: "object" } }, { format: "json" })).toThrow(
      /^\[eval-simulate\] tool "get-note" states an outputSchema.*remove its answer/,
    );
  });

  it("refuses a tool with neither an outputSchema nor an answer", () => {
    expect(() => contractEntry({ name: "list-notes", inputSchema: {} })).toThrow(/^\[eval-simulate\] tool "list-notes" has no answer/);
  });

  it("refuses answers that contradict their format", () => {
    const tool = { name: "t", inputSchema: {} };
    expect(() => contractEntry(tool, { format: "prefixed_json" })).toThrow(/needs a prefix/);
    expect(() => contractEntry(tool, { format: "json", suffix: "!" })).toThrow(/prefixed_json only/);
    expect(() => contractEntry(tool, { format: "text", schema: { type: "string" } })).toThrow(/text, which has no schema/);
    expect(() => contractEntry(tool, { format: "json", structured: true })).toThrow(/cannot be structured/);
  });

  it("serves a capture with no inputSchema as taking any object", () => {
    expect(contractEntry({ name: "ping" }, { format: "text" }).args).toEqual({ type: "object" });
  });
});

describe("defaults", () => {
  it("defaultsOf gives top-level properties' defaults as copies", () => {
    const defaults = defaultsOf(inputSchema);
    expect(defaults).toEqual({ limit: 20, fields: ["id", "title"], "a/b": false });
    (defaults.fields as string[]).push("changed");
    expect(inputSchema.properties.fields.default).toEqual(["id", "title"]);
  });

  it("defaultsOf is empty for a schema without properties", () => {
    expect(defaultsOf(true)).toEqual({});
    expect(defaultsOf({ type: "object" })).toEqual({});
  });

  it("nestedDefaults points at every default below the top level, not at data", () => {
    expect(nestedDefaults(inputSchema).sort()).toEqual(
      ["/$defs/Mode/default", "/anyOf/0/properties/extra/default", "/properties/fields/items/default", "/properties/page/properties/size/default"].sort(),
    );
  });

  it("nestedDefaults counts a default on the root itself", () => {
    expect(nestedDefaults({ type: "object", default: {} })).toEqual(["/default"]);
  });

  it("fillDefaults fills only missing arguments, each call with its own copy", () => {
    const defaults = defaultsOf(inputSchema);
    const first = fillDefaults(defaults, { query: "x", limit: 5 });
    expect(first).toEqual({ query: "x", limit: 5, fields: ["id", "title"], "a/b": false });
    (first.fields as string[]).push("changed");
    expect(fillDefaults(defaults, {}).fields).toEqual(["id", "title"]);
  });
});
