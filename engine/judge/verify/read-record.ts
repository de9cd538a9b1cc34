/** Reading a run's record file (`serve --record`): one call per JSON line. */
import { type LineLimits, readRegularLines } from "../../core/files/index.js";
import type { RecordedCall } from "../../core/record/index.js";

/**
 * The caps of a record read: a line of 16 MiB (a call's arguments and answer, each bounded by the
 * port's 1 MiB body limit, with room to spare) and a file of 256 MiB.
 */
export const RECORD_LIMITS: LineLimits = { maxLineBytes: 16 * 1024 * 1024, maxBytes: 256 * 1024 * 1024 };

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
 * record read in part would under-count what the agent did. The file is read as a regular file
 * only, a line at a time, under `RECORD_LIMITS` (a line past its cap throws naming it).
 *
 * Several sessions share one record file: `session` keeps one session's calls, `null` the process's
 * own world's; by default every line is kept.
 *
 * @example
 * const calls = readRecord("/logs/calls.jsonl"); // [{ server: "crm", tool: "list-records", args, result }, …]
 * const trial = readRecord("/logs/calls.jsonl", { session: "trial-3" });
 */
export function readRecord(file: string, options: { session?: string | null; limits?: LineLimits } = {}): RecordedCall[] {
  const calls: RecordedCall[] = [];
  const read = readRegularLines(file, options.limits ?? RECORD_LIMITS, (line, number, unterminated) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      // A run killed mid-write (kill -9) leaves its last line cut short, with no newline. The
      // host writes a call's line before it commits, so that call changed nothing; it was still
      // made, and its line begins with whom it called.
      if (unterminated) {
        const cut = cutCall(line);
        if (cut) calls.push(cut);
        return;
      }
      throw new Error(`[eval-simulate] ${file}:${number}: not a JSON line`, { cause: error });
    }
    if (!isCall(value)) {
      throw new Error(`[eval-simulate] ${file}:${number}: not a recorded call: expected { server, tool, … } or { api, operation, … }`);
    }
    if (options.session !== undefined && (value.session ?? null) !== options.session) return;
    calls.push(value);
  });
  if (!read.ok)
    throw new Error(read.line === undefined ? `[eval-simulate] the record ${file} ${read.reason}` : `[eval-simulate] ${file}:${read.line}: ${read.reason}`);
  return calls;
}
