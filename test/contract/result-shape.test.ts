import { isCallToolResult } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { jsonValueProblem, resultShapeProblem } from "../../engine/author/contract/index.js";

const PNG = "iVBORw0KGgo=";

const WELL_FORMED: unknown[] = [
  { content: [] },
  { content: [{ type: "text", text: "ok" }] },
  {
    content: [{ type: "text", text: "ok", annotations: { audience: ["user"], priority: 0.5, lastModified: "2026-01-01T09:00:00Z" }, _meta: { a: 1 } }],
    isError: false,
  },
  { content: [{ type: "image", data: PNG, mimeType: "image/png" }] },
  { content: [{ type: "audio", data: PNG, mimeType: "audio/wav" }] },
  { content: [{ type: "resource_link", uri: "file:///a.txt", name: "a.txt", size: 12, icons: [{ src: "https://example.com/i.png" }] }] },
  { content: [{ type: "resource", resource: { uri: "file:///a.txt", text: "hello", mimeType: "text/plain" } }] },
  { content: [{ type: "resource", resource: { uri: "file:///a.bin", blob: PNG } }] },
  { content: [{ type: "text", text: "{}" }], structuredContent: { a: [1, { b: null }] }, _meta: { "vendor/x": true } },
  { content: [{ type: "text", text: "x", extra: "kept" }], extra: 1 },
];

const MALFORMED: Array<[unknown, string]> = [
  [null, 'a tool result must be an object with "content", not null'],
  [{}, 'a tool result needs "content" (a list of content blocks)'],
  [{ content: {} }, '"content" must be a list of content blocks, not an object'],
  [{ content: ["hi"] }, 'content[0] must be a content block object, not the text "hi"'],
  [{ content: [{ text: "hi" }] }, "content[0] has type none; a content block is one of text, image, audio, resource_link, resource"],
  [{ content: [{ type: "image", mimeType: "image/png" }] }, 'content[0] (image) needs "data"'],
  [{ content: [{ type: "audio", data: PNG }] }, 'content[0] (audio) needs "mimeType"'],
  [{ content: [{ type: "image", data: "not base64!", mimeType: "image/png" }] }, 'content[0] (image) "data" must be base64 text'],
  [{ content: [{ type: "text", text: "a" }, { type: "text" }] }, 'content[1] (text) needs "text"'],
  [{ content: [{ type: "resource_link", name: "a" }] }, 'content[0] (resource_link) needs "uri"'],
  [{ content: [{ type: "resource_link", uri: "u", name: "a", size: "big" }] }, 'content[0] (resource_link) "size" must be a number, not the text "big"'],
  [{ content: [{ type: "resource" }] }, 'content[0] (resource) needs "resource"'],
  [{ content: [{ type: "resource", resource: { uri: "u" } }] }, 'content[0] (resource) resource needs "text" or "blob"'],
  [{ content: [{ type: "resource", resource: { uri: "u", blob: "%%" } }] }, 'content[0] (resource) resource "blob" must be base64 text'],
  [
    { content: [{ type: "text", text: "a", annotations: { audience: ["bot"] } }] },
    'content[0] (text) annotations.audience must be a list of "user" and "assistant"',
  ],
  [
    { content: [{ type: "text", text: "a", annotations: { lastModified: "yesterday" } }] },
    'content[0] (text) annotations.lastModified must be an ISO 8601 date-time with an offset, not the text "yesterday"',
  ],
  [{ content: [{ type: "text", text: "a", _meta: "x" }] }, 'content[0] (text) "_meta" must be an object, not the text "x"'],
  [{ content: [], structuredContent: null }, '"structuredContent" must be an object, not null'],
  [{ content: [], isError: 1 }, '"isError" must be true or false, not number 1'],
  [{ content: [], _meta: [] }, '"_meta" must be an object, not an array'],
  [{ content: [{ type: "resource_link", uri: "u", name: "a", size: Number.NaN }] }, "content.0.size must be a finite number, not NaN"],
  [{ content: [], structuredContent: { n: -Infinity } }, "structuredContent.n must be a finite number, not -Infinity"],
];

describe("a tool result's shape, as the MCP protocol carries it", () => {
  it.each(WELL_FORMED.map((result) => [JSON.stringify(result).slice(0, 70), result]))("accepts %s, as the SDK does", (_label, result) => {
    expect(resultShapeProblem(result)).toBeUndefined();
    expect(isCallToolResult(result)).toBe(true);
  });

  it.each(MALFORMED)("names the problem of %j in a short phrase", (result, problem) => {
    expect(resultShapeProblem(result)).toBe(problem);
  });

  it("refuses what the SDK's own CallToolResult schema refuses, and beyond it only structured content that is not a JSON object", () => {
    for (const [result, problem] of MALFORMED) {
      // The SDK's 2026-era schema takes any structuredContent; the 2025-11-25 era (and JSON) need an object.
      if (isCallToolResult(result)) expect(problem).toMatch(/^"?structuredContent/);
    }
  });

  it("refuses a result nested deeper than a stack would take, without overflowing one", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(resultShapeProblem({ content: [], structuredContent: deep })).toBe("structuredContent.a.a.a.a.a.a.a.… nests deeper than 1000 levels");
  });
});

describe("plain JSON values", () => {
  it("finds a non-finite number, a bigint, a function and a cycle, and where", () => {
    expect(jsonValueProblem({ list: [1, { n: Infinity }] })).toEqual({ path: "/list/1/n", message: "must be a finite number, not Infinity" });
    expect(jsonValueProblem(Number.NaN)).toEqual({ path: "", message: "must be a finite number, not NaN" });
    expect(jsonValueProblem({ big: 1n })).toEqual({ path: "/big", message: "must be a JSON number, not a bigint" });
    expect(jsonValueProblem([() => 1])).toEqual({ path: "/0", message: "must be a JSON value, not a function" });
    const cyclic: Record<string, unknown> = { a: {} };
    (cyclic.a as Record<string, unknown>).back = cyclic;
    expect(jsonValueProblem(cyclic)).toEqual({ path: "/a/back", message: "must not refer to itself (a circular reference)" });
    expect(jsonValueProblem({ "a/b~c": [Number.NEGATIVE_INFINITY] })).toEqual({ path: "/a~1b~0c/0", message: "must be a finite number, not -Infinity" });
  });

  it("accepts plain JSON, shared subtrees, undefined and the largest finite numbers", () => {
    const shared = { x: 1 };
    expect(jsonValueProblem({ a: shared, b: [shared, shared], c: undefined, max: Number.MAX_VALUE, min: -Number.MAX_VALUE, tiny: 5e-324 })).toBeUndefined();
  });

  it("measures a value 100,000 levels deep without recursing, and refuses it past a limit", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    expect(jsonValueProblem(deep)).toBeUndefined();
    expect(jsonValueProblem(deep, { maxDepth: 1000 })).toEqual({ path: "/0/0/0/0/0/0/0/0/…", message: "nests deeper than 1000 levels" });
  });

  it("passes over frozen (committed) values only when asked to", () => {
    const committed = Object.freeze({ n: Infinity });
    expect(jsonValueProblem({ committed }, { skipFrozen: true })).toBeUndefined();
    expect(jsonValueProblem({ committed })).toEqual({ path: "/committed/n", message: "must be a finite number, not Infinity" });
  });
});
