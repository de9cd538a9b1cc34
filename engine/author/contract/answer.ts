/**
 * A tool's answer: the format its successful result is written in, and the schema the value
 * must fit. Encoding lives here; reading back lives in read-answer.ts.
 */
import type { JsonSchema } from "./schema-walk.js";
import { encodeToon } from "./toon.js";

/** The formats a tool's answer is written in. */
export type AnswerFormat = "json" | "toon" | "prefixed_json" | "text" | "content";

/** How a tool answers. */
export interface AnswerSpec {
  format: AnswerFormat;
  /** The schema the answered value fits (no schema for `text`). */
  schema?: JsonSchema;
  /** `prefixed_json` only: the fixed text before the JSON. */
  prefix?: string;
  /** `prefixed_json` only: the fixed text after the JSON, if any. */
  suffix?: string;
  /**
   * The tool's capture states an outputSchema: the answer is structured content (format json,
   * schema the outputSchema), sent with its JSON as text.
   */
  structured?: boolean;
  /**
   * `structured` only: how the text beside the structured content is written: `json` (compact,
   * the default), `json-pretty` (indented by 2), or a JSONata expression on the structured value.
   */
  text?: string;
}

/**
 * A value written as JSON text. A value JSON has no text for (`undefined`, a function) is
 * written `null`, as TOON writes it; a value JSON cannot write (a cycle, a BigInt) throws.
 *
 * @example
 * jsonText({ a: 1 }); // '{"a":1}'
 */
export function jsonText(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`[eval-simulate] the answer cannot be written as JSON: ${reason}`, { cause: error });
  }
  return text ?? "null";
}

/**
 * The text of an answer in its format.
 *
 * @example
 * encodeAnswer({ format: "toon" }, { notes: [] }); // "notes[0]:"
 * encodeAnswer({ format: "prefixed_json", prefix: "Result: " }, { ok: true }); // 'Result: {"ok":true}'
 */
export function encodeAnswer(answer: AnswerSpec, value: unknown): string {
  switch (answer.format) {
    case "json":
      return jsonText(value);
    case "toon":
      return encodeToon(value);
    case "prefixed_json":
      return `${answer.prefix ?? ""}${jsonText(value)}${answer.suffix ?? ""}`;
    case "text":
      return typeof value === "string" ? value : jsonText(value);
    case "content":
      throw new Error("[eval-simulate] a content answer is blocks, not one text: use answerResult");
    default:
      throw new Error(`[eval-simulate] unknown answer format ${JSON.stringify((answer as { format: unknown }).format)}`);
  }
}
