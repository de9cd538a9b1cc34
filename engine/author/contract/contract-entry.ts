/**
 * A served tool's contract: the captured tool, the schema of its arguments, the defaults filled
 * into them, and its answer. What a fake exposes for checks and tests to read its tools by.
 */
import type { AnswerSpec } from "./answer.js";
import { defaultsOf } from "./defaults.js";
import { isSchemaObject, type JsonSchema } from "./schema-walk.js";

/** A tool exactly as the real server's tools/list gave it. */
export interface CapturedTool {
  name: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

/** One tool's contract. */
export interface ContractEntry {
  name: string;
  /** The captured tool, as it is served. */
  tool: CapturedTool;
  /** The tool's inputSchema. */
  args: JsonSchema;
  /** The defaults of the input schema's top-level properties, filled into every call. */
  defaults: Record<string, unknown>;
  answer: AnswerSpec;
}

/**
 * A tool's contract entry. A tool with an outputSchema answers structured content checked against
 * it, so it takes no `answer`; every other tool needs one.
 *
 * @example
 * contractEntry({ name: "list-notes", inputSchema: { type: "object" } }, { format: "toon" });
 * contractEntry({ name: "get-note", inputSchema: { type: "object" }, outputSchema: { type: "object" } });
 */
export function contractEntry(tool: CapturedTool, answer?: AnswerSpec): ContractEntry {
  const name = tool.name;
  // MCP requires an inputSchema; a capture without one is served as taking any object.
  const args: JsonSchema = tool.inputSchema ?? { type: "object" };
  return { name, tool, args, defaults: defaultsOf(args), answer: answerOf(tool, answer) };
}

function answerOf(tool: CapturedTool, answer: AnswerSpec | undefined): AnswerSpec {
  const quoted = JSON.stringify(tool.name);
  if (tool.outputSchema !== undefined && tool.outputSchema !== null) {
    if (answer !== undefined) {
      throw new Error(`[eval-simulate] tool ${quoted} states an outputSchema, so it answers structured content checked against it: remove its answer`);
    }
    if (!isSchemaObject(tool.outputSchema)) {
      throw new Error(`[eval-simulate] tool ${quoted} has an outputSchema that is not a JSON Schema object`);
    }
    return { format: "json", schema: tool.outputSchema, structured: true };
  }
  if (answer === undefined) {
    throw new Error(`[eval-simulate] tool ${quoted} has no answer: give it one (format json, toon, prefixed_json or text)`);
  }
  if (answer.structured === true) {
    throw new Error(`[eval-simulate] tool ${quoted} has no outputSchema, so its answer cannot be structured`);
  }
  if (answer.format === "prefixed_json" && !answer.prefix) {
    throw new Error(`[eval-simulate] tool ${quoted} answers prefixed_json, which needs a prefix`);
  }
  if (answer.format !== "prefixed_json" && (answer.prefix !== undefined || answer.suffix !== undefined)) {
    throw new Error(`[eval-simulate] tool ${quoted} answers ${answer.format}: prefix and suffix belong to prefixed_json only`);
  }
  if (answer.format === "text" && answer.schema !== undefined) {
    throw new Error(`[eval-simulate] tool ${quoted} answers text, which has no schema: remove the schema or choose json`);
  }
  return answer;
}
