import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compileAtRunTime, precompiled, publishedSchemaText, publishedValidator } from "../../engine/author/manifest/index.js";

const fixtures = new URL("../fixtures/", import.meta.url).pathname;
const examples = new URL("../../examples/", import.meta.url).pathname;
const inExamples = (file: string) =>
  readdirSync(examples)
    .filter((name) => readdirSync(`${examples}${name}`).includes(file))
    .map((name) => `${examples}${name}/${file}`);
const read = (path: string): unknown => parse(readFileSync(path, "utf8"));
const parses = (path: string) => {
  try {
    read(path);
    return true;
  } catch {
    return false;
  }
};

// Every broken manifest and evals file the suites keep, plus the examples: the documents whose
// errors users see. (YAML that does not parse, such as a bad alias, never reaches the validator.)
const manifests = readdirSync(fixtures)
  .filter((name) => name.startsWith("error-"))
  .flatMap((name) =>
    readdirSync(`${fixtures}${name}`)
      .filter((f) => f === "fakes.yaml")
      .map((f) => `${fixtures}${name}/${f}`),
  )
  .concat(inExamples("fakes.yaml"))
  .filter(parses);
const evalsFiles = readdirSync(`${fixtures}evals`)
  .filter((name) => name.endsWith(".yaml"))
  .map((name) => `${fixtures}evals/${name}`)
  .concat(inExamples("evals.yaml"))
  .filter(parses);

/** What a validator says of a document: valid or not, and its errors exactly (verbose: with schema, parentSchema and data). */
function verdict(validate: ReturnType<typeof compileAtRunTime>, value: unknown) {
  const valid = validate(value);
  return { valid, errors: validate.errors ?? null };
}

describe.each([
  ["manifest", manifests],
  ["evals", evalsFiles],
] as const)("the build's standalone %s validator", (name, files) => {
  const text = publishedSchemaText(name);
  const runtime = compileAtRunTime(text);

  it("is in dist/validators/ for the published schema as it is now (npm run build writes it)", () => {
    expect(precompiled(name, text)).toBeTypeOf("function");
    expect(publishedValidator(name)).toBe(precompiled(name, text));
  });

  it("is not used for a schema that changed after the build", () => {
    expect(precompiled(name, `${text}\n`)).toBeUndefined();
  });

  it.each(files.map((file) => [file.replace(/^.*\/(test|examples)\//, "$1/"), file]))("gives the runtime compile's errors on %s", (_, file) => {
    const value = read(file);
    const standalone = precompiled(name, text);
    if (!standalone) throw new Error("no standalone validator: run npm run build");
    expect(verdict(standalone, value)).toEqual(verdict(runtime, value));
  });

  it("finds errors in the error fixtures (the comparison is not of two empty lists)", () => {
    const standalone = precompiled(name, text);
    const failing = files.filter((file) => standalone && !standalone(read(file)));
    expect(failing.length).toBeGreaterThan(0);
  });
});
