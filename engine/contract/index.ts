/** The contract stage: tools' answers, how they are written and read back, and schema validation. */
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
