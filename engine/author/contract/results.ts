/**
 * Tool results as the MCP protocol carries them: the helpers a TypeScript handler's context
 * offers (`answer`, `text`, `structured`, `notImplemented`), usable on their own too.
 */
import type { ToolResult } from "../handlers/index.js";
import { encodeAnswer, jsonText, type AnswerSpec } from "./answer.js";
import { contentOf } from "./content-blocks.js";

/** How the text beside structured content is written: compact JSON, indented JSON, or given. */
export type StructuredText = "json" | "json-pretty" | { literal: string };

/**
 * A text result; with `isError: true`, a tool error. `isError` is left out unless true, as
 * servers leave it out of successful results.
 *
 * @example
 * text("Saved"); // { content: [{ type: "text", text: "Saved" }] }
 * text("No such note", true); // { content: [...], isError: true }
 */
export function text(value: string, isError?: boolean): ToolResult {
  const result: ToolResult = { content: [{ type: "text", text: value }] };
  if (isError === true) result.isError = true;
  return result;
}

/**
 * The result of a tool with an output schema: the value as structured content and its JSON as
 * text, as the SDK's servers send it.
 *
 * @example
 * structured({ id: "note-1" });
 * // { content: [{ type: "text", text: '{"id":"note-1"}' }], structuredContent: { id: "note-1" } }
 * structured({ id: "note-1" }, { text: "json-pretty" }); // text '{\n  "id": "note-1"\n}'
 * structured({ id: "note-1" }, { text: { literal: "Created note-1" } }); // text "Created note-1"
 */
export function structured(value: Record<string, unknown>, options: { text?: StructuredText | string } = {}): ToolResult {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    // MCP's structuredContent is an object; anything else would be a malformed result.
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    throw new Error(`[eval-simulate] structured content must be an object, not ${kind}`);
  }
  return { content: [{ type: "text", text: structuredTextOf(value, options.text) }], structuredContent: value };
}

/**
 * The text sent beside structured content: compact JSON (the default), `json-pretty` (as
 * `JSON.stringify(value, null, 2)`, which servers built on the SDK's examples write), or any
 * other string as it is.
 *
 * @example structuredTextOf({ a: 1 }, "json-pretty"); // '{\n  "a": 1\n}'
 */
export function structuredTextOf(value: unknown, form: StructuredText | string | undefined): string {
  if (form === undefined || form === "json") return jsonText(value);
  if (form === "json-pretty") return JSON.stringify(value, null, 2) ?? "null";
  return typeof form === "string" ? form : form.literal;
}

/**
 * A successful result answering `value` in the tool's answer format (structured content for a
 * tool with an output schema).
 *
 * @example
 * answerResult({ format: "toon" }, { notes: [] }); // { content: [{ type: "text", text: "notes[0]:" }] }
 */
export function answerResult(answer: AnswerSpec, value: unknown): ToolResult {
  if (answer.structured === true) {
    const form = answer.text === "json" || answer.text === "json-pretty" ? answer.text : undefined;
    if (answer.text !== undefined && form === undefined) {
      throw new Error("[eval-simulate] this tool's answer text is a JSONata expression: answerResult cannot evaluate it (the runtime does)");
    }
    return structured(value as Record<string, unknown>, { text: form });
  }
  if (answer.format === "content") return { content: contentOf(value) as ToolResult["content"] };
  return text(encodeAnswer(answer, value));
}

/**
 * The tool error a fake answers for a part of the real server it does not imitate.
 *
 * @example
 * notImplemented("attachments"); // tool error "This fake does not implement attachments"
 */
export function notImplemented(what: string): ToolResult {
  return text(`This fake does not implement ${what}`, true);
}
