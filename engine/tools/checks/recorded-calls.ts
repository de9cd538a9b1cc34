/**
 * A recording (the JSONL file `withFakes` or `serve --record` appends calls to), read back for
 * the checks that replay calls and hold answers to observations.
 */
import { existsSync, readFileSync } from "node:fs";

/** One recorded tool call: `{ server, tool, args, result }`, and its line in the file. */
export interface RecordedCall {
  server: string;
  tool: string;
  /** As the caller sent them, before defaults. */
  args?: Record<string, unknown>;
  /** The CallToolResult, or `{ error: { code, message } }` for a JSON-RPC error. */
  result: { content?: unknown; structuredContent?: unknown; isError?: boolean; error?: { code?: number; message?: string } };
  line: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The tool calls a recording holds, in file order; API calls and blank lines are skipped. A
 * missing file holds none. Throws, naming the line, for a line that is not a recorded call.
 *
 * @example const calls = readRecording("tests/responses.jsonl").filter((c) => c.server === "crm");
 */
export function readRecording(file: string): RecordedCall[] {
  if (!existsSync(file)) return [];
  const calls: RecordedCall[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((text, index) => {
      if (text.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new Error(`[eval-simulate] ${file}:${index + 1} is not JSON (${(error as Error).message}); each line of a recording is one call`);
      }
      if (!isObject(value) || (value.api !== undefined && value.server === undefined)) return;
      if (typeof value.server !== "string" || typeof value.tool !== "string" || !isObject(value.result)) {
        throw new Error(`[eval-simulate] ${file}:${index + 1} is not a recorded call { server, tool, args, result }`);
      }
      calls.push({
        server: value.server,
        tool: value.tool,
        ...(isObject(value.args) ? { args: value.args } : {}),
        result: value.result as RecordedCall["result"],
        line: index + 1,
      });
    });
  return calls;
}

/** True for a call the fake answered successfully (not a tool error, not a JSON-RPC error). */
export function answeredSuccessfully(call: RecordedCall): boolean {
  return call.result.error === undefined && call.result.isError !== true && Array.isArray(call.result.content);
}

/** The text of a recorded result's text content. */
export function recordedText(call: RecordedCall): string {
  const content = Array.isArray(call.result.content) ? call.result.content : [];
  return content
    .filter((item): item is { type: string; text: string } => isObject(item) && item.type === "text" && typeof item.text === "string")
    .map((item) => item.text)
    .join("\n");
}

/**
 * Whether a file is a record (JSON lines of calls with their results, as `serve --record` and
 * `withFakes` write) rather than a calls list (YAML or JSON, as `replay` also reads): by its
 * `.jsonl`/`.ndjson` name, or by every line being a JSON object (several, or one naming a tool).
 * A missing file is an empty record.
 *
 * @example isRecordFile("tests/responses.jsonl") // true
 */
export function isRecordFile(file: string): boolean {
  if (!existsSync(file) || /\.(jsonl|ndjson)$/.test(file)) return true;
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  if (lines.length === 0 || !lines.every((line) => line.trimStart().startsWith("{"))) return false;
  if (lines.length > 1) return true;
  try {
    const only = JSON.parse(lines[0]) as Record<string, unknown>;
    return typeof only.tool === "string" || typeof only.api === "string";
  } catch {
    return false;
  }
}
