/**
 * Precompiles the published schemas' validators (ajv's standalone code) into
 * dist/validators/, so `validate`, `serve` and `eval` do not compile eval-simulate.schema.json and
 * eval-simulate.evals.schema.json at start-up (the largest single cost of a cold start). Run by
 * `npm run build`; the output is never committed. Each module records the sha256 of the schema it
 * was made from: the loaders compile at run time instead when it does not match, so a schema
 * edited after the build is never checked by a stale validator.
 *
 * The options must stay those of the runtime compile (engine/author/manifest/published-validator.ts):
 * the published schemas use no format ajv enforces and no pattern RE2 must compile (they are the
 * engine's own, trusted), so plain ajv with its default RegExp is what both sides use.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";

const standalone = standaloneModule.default ?? standaloneModule;
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "validators");
mkdirSync(out, { recursive: true });

for (const [name, file] of [
  ["manifest", "eval-simulate.schema.json"],
  ["evals", "eval-simulate.evals.schema.json"],
]) {
  const text = readFileSync(join(root, file), "utf8");
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, code: { source: true } });
  const code = standalone(ajv, ajv.compile(JSON.parse(text)));
  const hash = createHash("sha256").update(text).digest("hex");
  // CommonJS (.cjs), so the loaders can require it synchronously from an ESM package.
  writeFileSync(join(out, `${name}.cjs`), `${code}\nmodule.exports.schemaHash = ${JSON.stringify(hash)};\n`);
}
