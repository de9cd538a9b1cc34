/**
 * A step's record lines as transcript messages: the calls one side made in a turn, each with its
 * result and commit straight from the session's record (what the judge reads, whatever host ran),
 * and the lines themselves marked with who made them and in which turn.
 */
import type { TranscriptMessage, TranscriptToolCall } from "../hosts/index.js";

type Line = Record<string, unknown>;

/** The name a line's call goes by: `server/tool`, `api/operation`. */
function nameOf(line: Line): string {
  return "server" in line ? `${String(line.server)}/${String(line.tool)}` : `${String(line.api)}/${String(line.operation)}`;
}

function failed(line: Line): boolean {
  if ("server" in line) {
    const result = line.result as { isError?: unknown; error?: unknown } | undefined;
    return result?.isError === true || result?.error !== undefined;
  }
  const status = (line.response as { status?: unknown } | undefined)?.status;
  return typeof status === "number" && status >= 400;
}

/**
 * Marks `lines` (the record's `from`-th line on) as `by`'s in `turn`, and answers the messages
 * they make: one message with the calls, then one `tool` message per call.
 *
 * @example const messages = stepMessages(record, 3, { turn: 2, role: "assistant", by: "agent" });
 */
export function stepMessages(
  lines: readonly Line[],
  from: number,
  step: { turn: number; role: "user" | "assistant"; by: "agent" | "user" },
): TranscriptMessage[] {
  const mine = lines.slice(from);
  if (mine.length === 0) return [];
  const calls: TranscriptToolCall[] = [];
  const results: TranscriptMessage[] = [];
  mine.forEach((line, i) => {
    line.by = step.by;
    line.turn = step.turn;
    const id = `call-${from + i + 1}`;
    const name = nameOf(line);
    calls.push({ id, name, args: "server" in line ? line.args : line.request });
    results.push({
      turn: step.turn,
      role: "tool",
      toolCallId: id,
      name,
      result: "server" in line ? line.result : line.response,
      isError: failed(line),
      ...(typeof line.commit === "number" ? { commit: line.commit } : {}),
      // What the fake asked the client mid-call (an elicitation, a sampling request) and the answer it got.
      ...(Array.isArray((line as { exchanges?: unknown }).exchanges) ? { exchanges: (line as { exchanges: unknown[] }).exchanges } : {}),
      by: step.by,
    });
  });
  return [{ turn: step.turn, role: step.role, toolCalls: calls, by: step.by }, ...results];
}
