/**
 * ajv for the schema compiler, loaded on the first compile (its ~100 files cost ~35 ms of a
 * start that a warm manifest cache may never need), and a validator's standalone code: the
 * CommonJS module text ajv writes for a compiled validator (`ajv/dist/standalone`), which the
 * manifest cache keeps beside a schema's compile outcome so a later process runs the same
 * generated code without compiling the schema again.
 */
import { createRequire } from "node:module";
import type { Ajv as AjvInstance, ErrorObject, Logger, Options, ValidateFunction } from "ajv";
import type { Ajv2019 as Ajv2019Instance } from "ajv/dist/2019.js";
import type { Ajv2020 as Ajv2020Instance } from "ajv/dist/2020.js";
import type { Engine } from "./dialect.js";
import { linearPattern, linearRegExp } from "./linear-pattern.js";

// CommonJS through require: an ESM import of it makes node scan it, and every file it requires,
// for named exports (cjs-module-lexer), a measurable share of each start (docs/performance.md).
const requireHere = createRequire(import.meta.url);

/** An ajv instance of one of the three engines. */
export type AjvEngine = AjvInstance | Ajv2019Instance | Ajv2020Instance;

/** The engine classes, the formats plugin and the standalone writer, required together on first use. */
interface AjvModules {
  engines: Record<Engine, new (options: Options) => AjvEngine>;
  addFormats: (ajv: AjvEngine) => unknown;
  standalone: (ajv: AjvEngine, validator: ValidateFunction) => string;
  /** The formats' code in standalone output: the same `fullFormats` the plugin adds. */
  formatsCode: NonNullable<NonNullable<Options["code"]>["formats"]>;
}

let modules: AjvModules | undefined;

function ajvModules(): AjvModules {
  if (modules) return modules;
  const { Ajv, _ } = requireHere("ajv") as typeof import("ajv");
  const { Ajv2019 } = requireHere("ajv/dist/2019.js") as typeof import("ajv/dist/2019.js");
  const { Ajv2020 } = requireHere("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const standalone = requireHere("ajv/dist/standalone/index.js") as { default: AjvModules["standalone"] };
  modules = {
    engines: { "draft-07": Ajv, "2019-09": Ajv2019, "2020-12": Ajv2020 },
    // ajv-formats' `module.exports` is the plugin function; `.default` is the same function.
    addFormats: (requireHere("ajv-formats") as typeof import("ajv-formats")).default as AjvModules["addFormats"],
    standalone: standalone.default,
    formatsCode: _`require("ajv-formats/dist/formats").fullFormats`,
  };
  return modules;
}

/**
 * A new ajv engine with the compiler's options: `strict: false`, all errors, formats enforced
 * (ajv-formats' full set), the schema itself not checked against its meta-schema, patterns on
 * RE2, and the generated source kept so `standaloneCodeOf` can write it out.
 */
export function newAjvEngine(kind: Engine, logger: Logger): AjvEngine {
  const { engines, addFormats, formatsCode } = ajvModules();
  const ajv = new engines[kind]({
    strict: false,
    allErrors: true,
    validateFormats: true,
    validateSchema: false,
    logger,
    code: { regExp: linearRegExp, source: true, formats: formatsCode },
  });
  addFormats(ajv);
  return ajv;
}

/**
 * A compiled validator's standalone code, or undefined when ajv cannot write one for it (the
 * schema then compiles again on its first use, as without it). Called right after the compile,
 * before the engine forgets the schemas it registered.
 */
export function standaloneCodeOf(ajv: AjvEngine, validator: ValidateFunction): string | undefined {
  try {
    return ajvModules().standalone(ajv, validator);
  } catch {
    return undefined;
  }
}

/**
 * The validator a standalone module defines: the code ajv generated when this build compiled
 * the same schema, its `require`s (ajv's runtime helpers, ajv-formats' formats) resolved from
 * the engine's own dependencies and its patterns compiled by `linearPattern` again, so it runs
 * as the compiled validator does without loading ajv's compiler.
 */
export function validatorFromCode(code: string): ValidateFunction {
  const module: { exports: unknown } = { exports: {} };
  new Function("module", "exports", "require", "linearPattern", code)(module, module.exports, requireHere, linearPattern);
  const validator = module.exports as ValidateFunction;
  if (typeof validator !== "function") throw new Error("[eval-simulate] standalone validator code defined no validator");
  return validator;
}

/**
 * ajv's `errorsText` with its default options (`data` and `, `), without loading ajv:
 * `data/limit must be <= 50, data must have required property 'x'`.
 */
export function errorsText(errors: readonly ErrorObject[]): string {
  if (errors.length === 0) return "No errors";
  return errors.map((error) => `data${error.instancePath} ${error.message}`).join(", ");
}
