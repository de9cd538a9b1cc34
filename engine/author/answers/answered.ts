/**
 * Reading the answers an agent got: the calls a fake answered successfully, each result decoded
 * as the tool's contract says, so a check compares values, not text.
 */
import { readResult } from "../contract/index.js";
import { type AnswerSource, answerEntries } from "./answer-entries.js";

/** A call a fake answered: the tool's name, the arguments sent, and the decoded answer. */
export interface Answered<R = unknown> {
  name: string;
  args: Record<string, unknown>;
  result: R;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The text of a result's first text item: where every answer format but structured content is. */
function textOf(result: Json): string | undefined {
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const item = content.find((part): part is Json => isObject(part) && part.type === "text" && typeof part.text === "string");
  return item?.text as string | undefined;
}

function argsOf(call: Json): Record<string, unknown> {
  const args = call.args ?? call.arguments ?? call.input;
  return isObject(args) ? args : {};
}

/**
 * The calls `fake` answered, in order, as `{ name, args, result }` with `result` decoded by the
 * tool's answer (`readResult`). A refused call (a tool error, or a JSON-RPC error such as an
 * unknown tool) is left out. A successful answer that does not read as the contract says
 * throws, naming the tool and the problem: a measurement taken over it would be invalid.
 *
 * `calls` are record lines (`{ server, tool, args, result }`) or `{ name, args, result }`; when
 * the contract names its fake (a ServerManifest or a fake from loadFakes), lines of other fakes
 * are skipped, so a whole record file can be passed.
 *
 * @example
 * const answers = JSON.parse(readFileSync("manifests/mcp/mail/answers.json", "utf8"));
 * answered(answers, readRecord("calls.jsonl").filter((c) => c.server === "mail"));
 * // [{ name: "send-email", args: { to: "dana@acme.example", … }, result: { id: "…" } }]
 */
export function answered<R = unknown>(fake: AnswerSource, calls: readonly object[]): Array<Answered<R>> {
  const { id, entries } = answerEntries(fake);
  const out: Array<Answered<R>> = [];
  calls.forEach((raw, index) => {
    if (!isObject(raw) || typeof raw.api === "string") return;
    if (id !== undefined && typeof raw.server === "string" && raw.server !== id) return;
    const name = typeof raw.tool === "string" ? raw.tool : raw.name;
    if (typeof name !== "string") throw new Error(`[eval-simulate] call ${index} names no tool (expected tool or name)`);
    const result = raw.result;
    if (!isObject(result)) throw new Error(`[eval-simulate] the call ${index} to "${name}" holds no tool result`);
    if (result.isError === true || result.error !== undefined) return;
    if (!Object.hasOwn(entries, name)) {
      throw new Error(
        `[eval-simulate] "${name}" answered call ${index}, but the contract has no tool of that name: the calls and the contract are of different fakes`,
      );
    }
    const reading = readResult(entries[name], { text: textOf(result), structured: result.structuredContent });
    if (!reading.ok) throw new Error(`[eval-simulate] "${name}" answered call ${index} outside its contract: ${reading.error}`);
    out.push({ name, args: argsOf(raw), result: reading.value as R });
  });
  return out;
}
