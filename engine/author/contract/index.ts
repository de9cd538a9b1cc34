/**
 * engine/author/contract/: a fake's contract with its clients. Answer encoders (`answer.ts`: json,
 * toon with `key[0]:` for empty arrays, prefixed_json, text, content; `toon.ts`), reading answers
 * back (`read-answer.ts`: `readAnswer`, `readResult`), contract entries and defaults, structured
 * results and the text beside them (`results.ts`), MCP content blocks checked
 * (`content-blocks.ts`), a tool result as MCP carries it (`result-shape.ts`), the MCP SDK loaded
 * on first use (`mcp-sdk.ts`: `loadMcpSdk`, then `mcpSdk()`), plain JSON
 * (`json-value-check.ts`: no non-finite numbers or cycles, nesting past the state and message
 * limits refused, walked without recursion when deep), and the schema compiler
 * (`schema-validator.ts`, `dialect.ts`: ajv per dialect, formats on; `ajv-engines.ts`: ajv loaded
 * on the first compile, a validator's standalone code written and run again; `compile-outcomes.ts`: the
 * outcomes of compiles a check recorded, their code included, trusted by a later process so it
 * runs that code (or compiles) on first use; `linear-pattern.ts`: patterns
 * on RE2 in linear time, lookaround and backreferences on JavaScript's engine with a note unless
 * they nest repetition).
 *
 * Other folders import this folder through this file only.
 */
export { encodeAnswer, jsonText } from "./answer.js";
export type { AnswerFormat, AnswerSpec } from "./answer.js";
export { contractEntry } from "./contract-entry.js";
export type { CapturedTool, ContractEntry } from "./contract-entry.js";
export { defaultsOf, fillDefaults, nestedDefaults } from "./defaults.js";
export { dialectOf } from "./dialect.js";
export type { Dialect } from "./dialect.js";
export { readAnswer, readResult } from "./read-answer.js";
export type { AnswerReading, ReadOptions, ResultParts } from "./read-answer.js";
export { answerResult, notImplemented, structured, structuredTextOf, text } from "./results.js";
export type { StructuredText } from "./results.js";
export { CONTENT_BLOCK_TYPES, contentBlockProblems, contentOf } from "./content-blocks.js";
export { createSchemaCompiler } from "./schema-validator.js";
export type { CompiledSchema, SchemaCompiler, SchemaCompilerOptions, SchemaIssue } from "./schema-validator.js";
export { walkSchema } from "./schema-walk.js";
export type { JsonSchema } from "./schema-walk.js";
export { decodeToon, encodeToon } from "./toon.js";
export { describeJsonValueProblem, jsonValueProblem, MAX_MESSAGE_DEPTH, MAX_STATE_DEPTH } from "./json-value-check.js";
export type { JsonValueCheckOptions, JsonValueProblem } from "./json-value-check.js";
export { resultShapeProblem } from "./result-shape.js";
export { numericExclusiveBounds } from "./dialect.js";
export { notePatterns, re2Only } from "./linear-pattern.js";
export type { PatternNote, RegExpLike } from "./linear-pattern.js";
export { sdkSchemaValidator } from "./schema-validator.js";
export { loadMcpSdk, mcpSdk } from "./mcp-sdk.js";
export { recordCompileOutcomes, trustCompileOutcomes } from "./compile-outcomes.js";
export type { CompileOutcome } from "./compile-outcomes.js";
export type { McpSdk } from "./mcp-sdk.js";
export { isSchemaObject, pointerToken } from "./schema-walk.js";
