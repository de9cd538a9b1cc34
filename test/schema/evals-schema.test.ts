import { existsSync, readdirSync, readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { evalsJsonSchema, evalsJsonSchemaText } from "../../schema/evals/document.js";
import { ROOT } from "../support/examples.js";

const committed = readFileSync(new URL("../../eval-simulate.evals.schema.json", import.meta.url), "utf8");

function eachSchemaNode(node: unknown, visit: (node: Record<string, unknown>, path: string) => void, path = "#"): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach((item, i) => eachSchemaNode(item, visit, `${path}/${i}`));
  visit(node as Record<string, unknown>, path);
  for (const [key, value] of Object.entries(node)) {
    if (key === "examples" || key === "default") continue;
    eachSchemaNode(value, visit, `${path}/${key}`);
  }
}

/** Every evals.yaml shipped with an example. */
function evalsFiles(): Array<[string, string]> {
  const dir = `${ROOT}examples`;
  return readdirSync(dir)
    .filter((name) => existsSync(`${dir}/${name}/evals.yaml`))
    .map((name) => [name, `${dir}/${name}/evals.yaml`]);
}

describe("eval-simulate.evals.schema.json", () => {
  it("is generated from the TypeBox definitions (run `npm run schema` when this fails)", () => {
    expect(committed).toBe(evalsJsonSchemaText());
  });

  it("is draft-07 and a valid schema", () => {
    expect(evalsJsonSchema().$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(new Ajv({ strict: false }).validateSchema(evalsJsonSchema())).toBe(true);
  });

  it("describes every property, in plain text and in markdown", () => {
    const undescribed: string[] = [];
    eachSchemaNode(evalsJsonSchema(), (node, path) => {
      for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (!property.description || !property.markdownDescription) undescribed.push(`${path}/properties/${name}`);
      }
    });
    expect(undescribed).toEqual([]);
  });

  it("closes every object with properties, so a typo is an error", () => {
    const open: string[] = [];
    eachSchemaNode(evalsJsonSchema(), (node, path) => {
      if (node.properties && Object.keys(node.properties).length > 0 && node.additionalProperties !== false) open.push(path);
    });
    expect(open).toEqual([]);
  });

  it("refuses iterations of the wrong type and an unknown expectation", () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(evalsJsonSchema());
    expect(validate({ version: 1, fakes: "fakes.yaml", cases: [{ id: "a", iterations: "3", expect: { called: [] } }] })).toBe(false);
    expect((validate.errors ?? []).map((e) => e.keyword).sort()).toEqual(["additionalProperties", "type"]);
  });

  it("has examples to accept", () => {
    expect(evalsFiles().length).toBeGreaterThanOrEqual(2);
  });

  it.each(evalsFiles())("accepts the example %s/evals.yaml", (_name, file) => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(evalsJsonSchema());
    const ok = validate(parse(readFileSync(file, "utf8"), { merge: true }));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });
});
