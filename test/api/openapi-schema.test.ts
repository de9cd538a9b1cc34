import { describe, expect, it } from "vitest";
import { basePathOf, compileApi, standaloneSchema } from "../../engine/serve/api/index.js";
import { compileTemplate, compareTemplates, matchTemplate, normalizePath } from "../../engine/author/openapi/path-template.js";
import { createSchemaCompiler } from "../../engine/author/contract/index.js";
import type { ApiManifest } from "../../engine/author/model/types.js";

const compiler = createSchemaCompiler({ defaultDialect: "2020-12" });

describe("OpenAPI schemas as standalone JSON Schemas", () => {
  it("converts OpenAPI 3.0's nullable and boolean exclusive bounds to JSON Schema 2020-12", () => {
    const document = {
      openapi: "3.0.3",
      paths: {},
      components: { schemas: { User: { type: "object", required: ["id"], properties: { id: { type: "integer" } } } } },
    };
    const schema = standaloneSchema(
      document,
      {
        type: "object",
        properties: {
          name: { type: "string", nullable: true },
          kind: { type: "string", enum: ["a", "b"], nullable: true },
          owner: { allOf: [{ $ref: "#/components/schemas/User" }], nullable: true },
          score: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
        },
      },
      "3.0",
      "#/test",
    ) as Record<string, any>;
    expect(schema.properties.name.type).toEqual(["string", "null"]);
    expect(schema.properties.kind.enum).toEqual(["a", "b", null]);
    expect(schema.properties.owner).toEqual({ anyOf: [{ type: "null" }, { allOf: [{ $ref: "#/$defs/components.schemas.User" }] }] });
    expect(schema.properties.score).toEqual({ type: "number", exclusiveMinimum: 0, maximum: 10 });
    const validator = compiler.compile(schema);
    expect(validator.validate({ name: null, kind: null, owner: null, score: 10 })).toBe(true);
    expect(validator.validate({ owner: { id: "x" }, score: 0 })).toBe(false);
    expect(validator.issues().map((i) => `${i.path} ${i.message}`)).toContain("/score must be > 0");
  });

  it("copies each referenced schema once, so recursive schemas compile and validate deeply", () => {
    const document = {
      openapi: "3.1.0",
      paths: {},
      components: {
        schemas: {
          Node: {
            type: "object",
            required: ["name"],
            properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
          },
        },
      },
    };
    const schema = standaloneSchema(document, { $ref: "#/components/schemas/Node" }, "3.1", "#/test") as Record<string, any>;
    expect(Object.keys(schema.$defs)).toEqual(["components.schemas.Node"]);
    const validator = compiler.compile(schema);
    expect(validator.validate({ name: "a", children: [{ name: "b", children: [{ name: "c" }] }] })).toBe(true);
    expect(validator.validate({ name: "a", children: [{ name: "b", children: [{}] }] })).toBe(false);
  });

  it("drops $ref siblings in 3.0, as 3.0 says, and keeps them in 3.1", () => {
    const document = { openapi: "3.0.3", paths: {}, components: { schemas: { S: { type: "string" } } } };
    expect(standaloneSchema(document, { $ref: "#/components/schemas/S", maxLength: 1 }, "3.0", "#/x")).not.toHaveProperty("maxLength");
    expect(standaloneSchema(document, { $ref: "#/components/schemas/S", maxLength: 1 }, "3.1", "#/x")).toHaveProperty("maxLength", 1);
  });

  it("refuses a $ref outside the document or to nothing, naming where it is", () => {
    const document = { openapi: "3.1.0", paths: {} };
    expect(() => standaloneSchema(document, { properties: { a: { $ref: "other.yaml#/X" } } }, "3.1", "#/here")).toThrow(
      "[eval-simulate] #/here/properties/a: the $ref other.yaml#/X is not inside the document",
    );
    expect(() => standaloneSchema(document, { $ref: "#/components/schemas/Gone" }, "3.1", "#/here")).toThrow("points at nothing");
  });

  it("refuses at start-up an API whose served operation's schema cannot be compiled", () => {
    const api = {
      id: "broken",
      hosts: [],
      timeoutMs: 100,
      entities: [],
      document: {
        openapi: "3.1.0",
        paths: {
          "/x": {
            get: {
              operationId: "x",
              responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Gone" } } } } },
            },
          },
        },
      },
      operations: [
        {
          name: "x",
          method: "GET",
          pathTemplate: "/x",
          reads: [],
          writes: [],
          handler: { kind: "module", fn: () => ({ status: 200 }), file: "x", source: { file: "x", line: 1, column: 1, path: "" } },
          source: { file: "x", line: 1, column: 1, path: "" },
        },
      ],
      source: { file: "x", line: 1, column: 1, path: "" },
    } as unknown as ApiManifest;
    expect(() => compileApi(api)).toThrow(
      "#/paths/~1x/get/responses/200/content/application~1json/schema: the $ref #/components/schemas/Gone points at nothing",
    );
  });
});

describe("base paths and path templates", () => {
  it("reads the base path from servers[0].url, its variables filled with their defaults", () => {
    expect(basePathOf({ servers: [{ url: "https://graph.microsoft.com/v1.0" }] })).toBe("/v1.0");
    expect(basePathOf({ servers: [{ url: "https://api.github.com" }] })).toBe("");
    expect(basePathOf({ servers: [{ url: "/api/v3/" }] })).toBe("/api/v3");
    expect(
      basePathOf({ servers: [{ url: "https://{region}.example.com/{version}", variables: { region: { default: "eu" }, version: { default: "v2" } } }] }),
    ).toBe("/v2");
    expect(basePathOf({})).toBe("");
  });

  it("ranks literal segments before templated ones", () => {
    const sorted = ["/issues/{n}", "/issues/comments", "/{a}/comments", "/issues/{n}.json"]
      .map(compileTemplate)
      .sort(compareTemplates)
      .map((t) => t.template);
    expect(sorted).toEqual(["/issues/comments", "/issues/{n}.json", "/issues/{n}", "/{a}/comments"]);
  });

  it("decodes what a client may encode, keeping an encoded slash inside its segment", () => {
    expect(normalizePath("/drive/root%3A/a%2Fb%3A/content/")).toBe("/drive/root:/a%2Fb:/content");
    expect(matchTemplate(compileTemplate("/items/{item-id}/$value"), normalizePath("/items/a%2Fb/%24value"))).toEqual({ "item-id": "a/b" });
    expect(matchTemplate(compileTemplate("/items/{id}"), "/items/a/b")).toBeUndefined();
  });
});
