/** Reading a run's record file (`serve --record`): one call per JSON line. */
import { readFileSync } from "node:fs";
import type { RecordedCall } from "../../core/record/index.js";

function isCall(value: unknown): value is RecordedCall {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const line = value as Record<string, unknown>;
  return (typeof line.server === "string" && typeof line.tool === "string") || (typeof line.api === "string" && typeof line.operation === "string");
}

/** The call a cut-short line names in its first two keys (arguments and answer unknown), if any. */
function cutCall(line: string): RecordedCall | undefined {
  const head = /^\{"(server|api)":("(?:[^"\\]|\\.)*"),"(tool|operation)":("(?:[^"\\]|\\.)*")[,}]/.exec(line);
  if (!head) return undefined;
  const [first, second] = [JSON.parse(head[2]) as string, JSON.parse(head[4]) as string];
  if (head[1] === "server" && head[3] === "tool") return { server: first, tool: second, args: undefined, result: undefined };
  if (head[1] === "api" && head[3] === "operation") return { api: first, operation: second, request: undefined, response: undefined };
  return undefined;
}

/**
 * The calls of a record file, in the order they were made. Blank lines are skipped; a last line
 * cut short with no newline (a run killed mid-write) is read for the call it names, its
 * arguments and answer unknown. Any other line that is not JSON, or not a call
 * (`{ server, tool, … }` or `{ api, operation, … }`), throws naming its line number, since a
 * record read in part would under-count what the agent did.
 *
 * Several sessions share one record file: `session` keeps one session's calls, `null` the process's
 * own world's; by default every line is kept.
 *
 * @example
 * const calls = readRecord("/logs/calls.jsonl"); // [{ server: "crm", tool: "list-records", args, result }, …]
 * const trial = readRecord("/logs/calls.jsonl", { session: "trial-3" });
 */
export function readRecord(file: string, options: { session?: string | null } = {}): RecordedCall[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`[eval-simulate] cannot read the record ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`, { cause: error });
  }
  const calls: RecordedCall[] = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      // A run killed mid-write (kill -9) leaves its last line cut short, with no newline. The
      // host writes a call's line before it commits, so that call changed nothing; it was still
      // made, and its line begins with whom it called.
      if (index === lines.length - 1) {
        const cut = cutCall(line);
        if (cut) calls.push(cut);
        return;
      }
      throw new Error(`[eval-simulate] ${file}:${index + 1}: not a JSON line: ${(error as Error).message}`, { cause: error });
    }
    if (!isCall(value)) {
      throw new Error(`[eval-simulate] ${file}:${index + 1}: not a recorded call: expected { server, tool, … } or { api, operation, … }`);
    }
    if (options.session !== undefined && (value.session ?? null) !== options.session) return;
    calls.push(value);
  });
  return calls;
}
