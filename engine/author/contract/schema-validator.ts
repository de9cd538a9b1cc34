/**
 * The one place plain JSON Schemas are compiled, the way the MCP SDK's ajv validator does it:
 * the engine picked by `$schema`, formats enforced by ajv-formats, `strict: false`, all errors
 * reported, the schema itself not checked against its meta-schema (so a schema the SDK accepts
 * is accepted here). Unlike the SDK, a schema with no `$schema` is draft-07 by default, and
 * patterns run on RE2 (linear time) rather than JavaScript's backtracking engine.
 */
import type { ErrorObject, Logger, ValidateFunction } from "ajv";
import { type AjvEngine, errorsText, newAjvEngine, standaloneCodeOf, validatorFromCode } from "./ajv-engines.js";
import { dialectOf, engineOf, upgradeDraft04, type Dialect, type Engine } from "./dialect.js";
import { notePatterns, replayPatternNotes, type PatternNote } from "./linear-pattern.js";
import type { JsonSchema } from "./schema-walk.js";
import { type CompileOutcome, noteCompileOutcome, recordingCompiles, trustedOutcome } from "./compile-outcomes.js";

/** One way a value breaks a schema, as ajv reports it. */
export interface SchemaIssue {
  /** JSON Pointer to the offending value ("" for the value itself): ajv's `instancePath`. */
  path: string;
  /** ajv's message, such as `must be <= 50`. */
  message: string;
  /** The keyword that failed, such as `maximum`. */
  keyword: string;
  /** ajv's params for the keyword, such as `{ comparison: "<=", limit: 50 }`. */
  params: unknown;
}

/** A compiled schema. `errorsText` and `issues` describe the last `validate` call. */
export interface CompiledSchema {
  /** The dialect the schema was compiled as. */
  readonly dialect: Dialect;
  /** ajv's warnings while compiling (such as an unknown format, which is then not checked). */
  readonly warnings: readonly string[];
  /** Patterns RE2 cannot run (backreferences, lookaround), which run on JavaScript's engine. */
  readonly patternNotes: readonly PatternNote[];
  /**
   * True when the schema holds an object to one schema per key and nothing else (`type: object`
   * and `additionalProperties`, beside annotations and definitions): such an object is valid
   * when each of its values is, so a change to some keys needs only those checked.
   */
  readonly recordMap: boolean;
  validate(value: unknown): boolean;
  /** ajv's `errorsText`: `data/limit must be <= 50, data must have required property 'x'`. */
  errorsText(): string;
  issues(): SchemaIssue[];
}

/** Compiles schemas; compiling the same schema object again returns the same CompiledSchema. */
export interface SchemaCompiler {
  compile(schema: JsonSchema): CompiledSchema;
}

export interface SchemaCompilerOptions {
  /** The dialect of a schema with no `$schema`: draft-07 unless said otherwise (the SDK's is 2020-12). */
  defaultDialect?: Dialect;
}

/**
 * A validator shared by schema text; `validator()` compiles it on first use (or runs the
 * standalone code kept for it) when its compile was trusted.
 */
interface SharedValidator {
  validator: () => ValidateFunction;
  outcome: CompileOutcome;
}

/**
 * Validators by dialect and schema text, shared by every compiler in the process: a Recipe's
 * servers often repeat a schema (the same pagination arguments on fifty tools), and compiling
 * costs milliseconds. Keyed by the whole text, `$id` included, so only identical schemas share.
 */
const compiledByText = new Map<string, SharedValidator>();
const MAX_SHARED = 20_000;

/**
 * A schema compiler with its own ajv engines and its own cache. Schemas are cached by object
 * identity, and every `$id` ajv registers while compiling is forgotten right after, so two
 * different schemas with the same `$id` never share a validator or resolve each other's refs.
 *
 * @example
 * const compiler = createSchemaCompiler();
 * const limit = compiler.compile({ type: "object", properties: { limit: { maximum: 50 } } });
 * limit.validate({ limit: 60 }); // false
 * limit.errorsText(); // "data/limit must be <= 50"
 */
export function createSchemaCompiler(options: SchemaCompilerOptions = {}): SchemaCompiler {
  const fallback = options.defaultDialect ?? "draft-07";
  const engines = new Map<Engine, AjvEngine>();
  const cache = new WeakMap<object, CompiledSchema>();
  // ajv reports warnings through its logger while compiling; compiling is synchronous, so the
  // list of the compile under way is all the logger needs.
  let warnings: string[] = [];
  const logger: Logger = {
    log() {},
    warn: (...args: unknown[]) => warnings.push(args.map(String).join(" ")),
    error: (...args: unknown[]) => warnings.push(args.map(String).join(" ")),
  };

  function engine(kind: Engine): AjvEngine {
    let ajv = engines.get(kind);
    if (ajv === undefined) {
      ajv = newAjvEngine(kind, logger);
      engines.set(kind, ajv);
    }
    return ajv;
  }

  function compile(schema: JsonSchema): CompiledSchema {
    const cached = typeof schema === "object" && schema !== null ? cache.get(schema) : undefined;
    if (cached !== undefined) return replayPatternNotes(cached);
    const dialect = dialectOf(schema, fallback);
    const kind = engineOf(dialect);
    const source = dialect === "draft-04" ? upgradeDraft04(schema) : schema;
    const key = `${dialect}\n${JSON.stringify(source)}`;
    const shared = compiledByText.get(key) ?? trustedValidator(kind, key);
    if (shared) {
      noteCompileOutcome(key, shared.outcome);
      const compiled = wrap(shared.validator, dialect, shared.outcome.warnings, shared.outcome.notes, isRecordMap(source));
      if (typeof schema === "object" && schema !== null) cache.set(schema, compiled);
      return replayPatternNotes(compiled);
    }
    const ajv = engine(kind);
    warnings = [];
    let validator: ValidateFunction;
    let notes: PatternNote[];
    let code: string | undefined;
    try {
      ({ result: validator, notes } = notePatterns(() => ajv.compile(source)));
      // Written while a manifest check records its compiles: the cache keeps it for the next start.
      if (recordingCompiles() && (validator as { $async?: boolean }).$async !== true) code = standaloneCodeOf(ajv, validator);
    } catch (error) {
      const found = metaSchemaFindings(ajv, source);
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`[eval-simulate] invalid JSON Schema: ${reason}${found ? ` (${found})` : ""}`, { cause: error });
    } finally {
      // Forget every schema and $id ajv registered (meta-schemas stay): the validator just
      // compiled keeps what it resolved, and the next schema starts from a clean registry.
      ajv.removeSchema();
    }
    if ((validator as { $async?: boolean }).$async === true) {
      // An async validator answers a Promise, which would read as "valid" every time.
      throw new Error("[eval-simulate] invalid JSON Schema: $async schemas are not supported; remove $async");
    }
    const outcome: CompileOutcome = { warnings: [...warnings], notes, ...(code === undefined ? {} : { code }) };
    const compiled = wrap(() => validator, dialect, warnings, notes, isRecordMap(source));
    if (typeof schema === "object" && schema !== null) cache.set(schema, compiled);
    if (compiledByText.size < MAX_SHARED) compiledByText.set(key, { validator: () => validator, outcome });
    noteCompileOutcome(key, outcome);
    return compiled;
  }

  /**
   * A schema whose compile a check by this build recorded as succeeding (the manifest cache):
   * on its first use, the standalone code that compile wrote runs, or, with none kept, the
   * schema compiles as it compiled then.
   */
  function trustedValidator(kind: Engine, key: string): SharedValidator | undefined {
    const trusted = trustedOutcome(key);
    if (!trusted) return undefined;
    let validator: ValidateFunction | undefined;
    const shared: SharedValidator = {
      validator: () => {
        if (validator) return validator;
        // The notes were replayed when the schema was handed out; a compile on first use adds none.
        const code = trusted.outcome.code;
        if (code !== undefined) {
          try {
            validator = notePatterns(() => validatorFromCode(code)).result;
            return validator;
          } catch {
            // Code this build did not write after all: compiled below, as without it.
          }
        }
        // Its own copy, from the key's text: the caller's object may be changed later.
        const source = JSON.parse(key.slice(key.indexOf("\n") + 1)) as JsonSchema;
        const ajv = engine(kind);
        try {
          validator = notePatterns(() => ajv.compile(source)).result;
        } finally {
          ajv.removeSchema();
        }
        return validator;
      },
      outcome: trusted.outcome,
    };
    if (compiledByText.size < MAX_SHARED) compiledByText.set(key, shared);
    return shared;
  }

  return { compile };
}

/** Keywords that say nothing about a value (or only hold what others refer to). */
const NOT_VALIDATING = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "examples",
  "default",
  "definitions",
  "$defs",
  "readOnly",
  "writeOnly",
  "deprecated",
]);

/** See `CompiledSchema.recordMap`. */
function isRecordMap(schema: JsonSchema): boolean {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  const { type, additionalProperties, ...rest } = schema as Record<string, unknown>;
  if (type !== "object" || additionalProperties === undefined || additionalProperties === false) return false;
  return Object.keys(rest).every((key) => NOT_VALIDATING.has(key));
}

/** A CompiledSchema over an ajv validator, keeping the errors of its own last call. */
function wrap(validatorOf: () => ValidateFunction, dialect: Dialect, warnings: string[], notes: PatternNote[], recordMap: boolean): CompiledSchema {
  let errors: ErrorObject[] = [];
  return {
    dialect,
    recordMap,
    warnings: Object.freeze([...warnings]),
    patternNotes: Object.freeze([...notes]),
    validate(value) {
      const validator = validatorOf();
      const valid = validator(value) === true;
      errors = valid ? [] : [...(validator.errors ?? [])];
      return valid;
    },
    errorsText: () => (errors.length === 0 ? "" : errorsText(errors)),
    issues: () =>
      errors.map((error) => ({
        path: error.instancePath,
        message: error.message ?? error.keyword,
        keyword: error.keyword,
        params: error.params,
      })),
  };
}

/** What the engine's meta-schema says about a schema that failed to compile, to point at where. */
function metaSchemaFindings(ajv: AjvEngine, schema: JsonSchema): string | undefined {
  const meta = ajv.defaultMeta();
  if (meta === undefined) return undefined;
  try {
    if (ajv.validate(meta, schema)) return undefined;
    // An anyOf in the meta-schema yields one error per branch; the first says it best.
    const seen = new Set<string>();
    const firsts = (ajv.errors ?? []).filter((e) => !seen.has(e.instancePath) && seen.add(e.instancePath));
    return ajv.errorsText(firsts, { dataVar: "schema" });
  } catch {
    return undefined;
  }
}

/** What the MCP SDK's `fromJsonSchema` takes as its validator (its `jsonSchemaValidator` shape). */
export interface SdkSchemaValidator {
  getValidator<T>(
    schema: JsonSchema,
  ): (input: unknown) => { valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };
}

/**
 * The SDK's validator interface over this module's compiler: the same dialect rules as the
 * SDK's ajv provider (2020-12 when `$schema` says nothing, formats enforced), the same error
 * text, and patterns on RE2, so a fake built with `toolsOf` cannot be held by a captured pattern.
 *
 * @example fromJsonSchema(tool.inputSchema, sdkSchemaValidator())
 */
export function sdkSchemaValidator(): SdkSchemaValidator {
  const compiler = createSchemaCompiler({ defaultDialect: "2020-12" });
  return {
    getValidator<T>(schema: JsonSchema) {
      const compiled = compiler.compile(schema);
      return (input: unknown) =>
        compiled.validate(input)
          ? { valid: true as const, data: input as T, errorMessage: undefined }
          : { valid: false as const, data: undefined, errorMessage: compiled.errorsText() };
    },
  };
}
