import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ValidateFunction } from "ajv";
import { packageRoot } from "./package-root.js";

/** The two published schemas: fakes.yaml's and evals.yaml's. */
export type PublishedSchemaName = "manifest" | "evals";

const FILES: Record<PublishedSchemaName, string> = {
  manifest: "eval-simulate.schema.json",
  evals: "eval-simulate.evals.schema.json",
};

const validators = new Map<PublishedSchemaName, ValidateFunction>();
const requireHere = createRequire(import.meta.url);

/**
 * A published schema's validator, once per process: the standalone module
 * `scripts/build-validators.mjs` wrote into dist/validators/ at build time when it was made from
 * this very schema text (sha256), else compiled here with the same options. Compiling the manifest
 * schema costs a few hundred milliseconds, most of a cold `validate`; the fallback keeps a
 * schema edited after the build (and the TypeScript sources under test) checked correctly.
 */
export function publishedValidator(name: PublishedSchemaName): ValidateFunction {
  const known = validators.get(name);
  if (known) return known;
  const text = publishedSchemaText(name);
  // EVAL_SIMULATE_PRECOMPILED=0 compiles at run time anyway: bench/startup.ts measures both ways.
  const usePrecompiled = process.env.EVAL_SIMULATE_PRECOMPILED !== "0";
  const validator = (usePrecompiled ? precompiled(name, text) : undefined) ?? compileAtRunTime(text);
  validators.set(name, validator);
  return validator;
}

/** A published schema's text as the package holds it. */
export function publishedSchemaText(name: PublishedSchemaName): string {
  return readFileSync(join(packageRoot(), FILES[name]), "utf8");
}

/** The same compile the build does, at run time: the reference the standalone module is tested against. */
export function compileAtRunTime(text: string): ValidateFunction {
  // Through require, only here: an ESM import would make node scan ajv's CommonJS files at every start.
  const { Ajv } = requireHere("ajv") as typeof import("ajv");
  return new Ajv({ allErrors: true, strict: false, verbose: true }).compile(JSON.parse(text));
}

/** The build's standalone validator of a schema, when dist/validators/ holds one made from exactly this text. */
export function precompiled(name: PublishedSchemaName, text: string): ValidateFunction | undefined {
  const file = join(packageRoot(), "dist", "validators", `${name}.cjs`);
  if (!existsSync(file)) return undefined;
  const module = requireHere(file) as { default?: ValidateFunction; schemaHash?: string };
  const hash = createHash("sha256").update(text).digest("hex");
  return module.schemaHash === hash ? module.default : undefined;
}
