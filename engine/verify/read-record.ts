/** Reading a run's record file (`serve --record`): one call per JSON line. */
import { readFileSync } from "node:fs";
import type { RecordedCall } from "./types.js";

function isCall(value: unknown): value is RecordedCall {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const line = value as Record<string, unknown>;
  return (typeof line.server === "string" && typeof line.tool === "string") || (typeof line.api === "string" && typeof line.operation === "string");
}

/**
 * The calls of a record file, in the order they were made. Blank lines are skipped; a line that
 * is not JSON, or not a call (`{ server, tool, … }` or `{ api, operation, … }`), throws naming
 * its line number, since a record read in part would under-count what the agent did.
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
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
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
