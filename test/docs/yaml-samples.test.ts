import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { ROOT } from "../support/examples.js";

// A user copies the docs' YAML samples: each must parse as YAML (an unquoted `{owner}` inside a
// flow mapping did not), and each that is a whole manifest or evals file (it starts at
// `version:`) must be one the published schema accepts. A sample may show alternatives of one key
// side by side, so repeated keys are allowed; Kubernetes files hold several documents.
const docs = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const samples = docs.flatMap((file) => {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].map((m) => ({ at: `${file}:${text.slice(0, m.index).split("\n").length}`, source: m[1] }));
});

const ajv = new Ajv({ allErrors: true, strict: false });
const schemaOf = (file: string) => ajv.compile(JSON.parse(readFileSync(join(ROOT, file), "utf8")));
const manifest = schemaOf("eval-simulate.schema.json");
const evals = schemaOf("eval-simulate.evals.schema.json");

describe("the docs' YAML samples", () => {
  it("finds the samples", () => {
    expect(samples.length).toBeGreaterThan(30);
  });

  it.each(samples)("$at parses as YAML", ({ source }) => {
    const errors = parseAllDocuments(source, { uniqueKeys: false, merge: true }).flatMap((doc) => ("errors" in doc ? doc.errors : []));
    expect(errors.map((error) => error.message)).toEqual([]);
  });

  const whole = samples.filter(({ source }) => /^version: 1$/m.test(source));
  it.each(whole)("$at is a manifest or an evals file the published schema accepts", ({ source }) => {
    const [doc] = parseAllDocuments(source, { merge: true });
    const value = doc.toJS() as Record<string, unknown>;
    const validate = "cases" in value || "selection" in value ? evals : manifest;
    validate(value);
    expect(validate.errors ?? []).toEqual([]);
  });
});
