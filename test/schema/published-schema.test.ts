import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { manifestJsonSchema, manifestJsonSchemaText } from "../../schema/json-schema-document.js";
import { examples } from "../support/examples.js";

const committed = readFileSync(new URL("../../eval-simulate.schema.json", import.meta.url), "utf8");

function eachSchemaNode(node: unknown, visit: (node: Record<string, unknown>, path: string) => void, path = "#"): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach((item, i) => eachSchemaNode(item, visit, `${path}/${i}`));
  visit(node as Record<string, unknown>, path);
  for (const [key, value] of Object.entries(node)) {
    if (key === "examples" || key === "default") continue;
    eachSchemaNode(value, visit, `${path}/${key}`);
  }
}

describe("eval-simulate.schema.json", () => {
  it("is generated from the TypeBox definitions (run `npm run schema` when this fails)", () => {
    expect(committed).toBe(manifestJsonSchemaText());
  });

  it("is draft-07, which yaml-language-server and VS Code complete best", () => {
    expect(manifestJsonSchema().$schema).toBe("http://json-schema.org/draft-07/schema#");
    const ajv = new Ajv({ strict: false });
    expect(ajv.validateSchema(manifestJsonSchema())).toBe(true);
  });

  it("describes every property, in plain text and in markdown", () => {
    const undescribed: string[] = [];
    eachSchemaNode(manifestJsonSchema(), (node, path) => {
      for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (!property.description || !property.markdownDescription) undescribed.push(`${path}/properties/${name}`);
      }
    });
    expect(undescribed).toEqual([]);
  });

  it("closes every object with properties, so a typo is an error", () => {
    const open: string[] = [];
    eachSchemaNode(manifestJsonSchema(), (node, path) => {
      if (node.properties && Object.keys(node.properties).length > 0 && node.additionalProperties !== false && !path.includes("captured")) open.push(path);
    });
    expect(open).toEqual([]);
  });

  it.each(examples())("accepts the example %s", (_name, file) => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(manifestJsonSchema());
    const ok = validate(parse(readFileSync(file, "utf8")));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });
});
