/**
 * A trial's conversation as one list of messages: the line's `transcript` when the runner wrote
 * one, else rebuilt from what every line has (its session's record: each tool call with its
 * arguments, answer and commit; and the agent's final answer). Pure, so it is tested without a
 * browser.
 */

export interface ToolCallView {
  /** 1-based, as the judge numbers calls (`evidence.calls`). */
  seq: number;
  server: string;
  name: string;
  args: unknown;
  result: unknown;
  isError: boolean;
  commit?: number;
  changes?: Record<string, unknown>;
}

export type Message = { role: "user" | "assistant"; text: string; by?: string; turn?: number } | { role: "tool"; call: ToolCallView; turn?: number };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a record line's answer is an error: a JSON-RPC error, an MCP `isError`, an HTTP status of 400 or more. */
function failed(line: Json): boolean {
  const result = isObject(line.result) ? line.result : isObject(line.response) ? line.response : undefined;
  if (!result) return false;
  if (result.isError === true || isObject(result.error)) return true;
  return typeof result.status === "number" && result.status >= 400;
}

/** The calls of a record, numbered as the judge numbers them. */
export function callsOf(record: readonly unknown[]): ToolCallView[] {
  return record.filter(isObject).map((line, i) => ({
    seq: i + 1,
    server: String(line.server ?? line.api ?? ""),
    name: String(line.tool ?? line.operation ?? ""),
    args: line.args ?? line.request,
    result: line.result ?? line.response,
    isError: failed(line),
    ...(typeof line.commit === "number" ? { commit: line.commit } : {}),
    ...(isObject(line.changes) ? { changes: line.changes } : {}),
  }));
}

/** A text block that holds JSON, indented to be read; any other text as it is. */
function pretty(text: string): string {
  if (!/^\s*[[{]/.test(text) || text.length > 200_000) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** What a tool's answer said, as the agent read it: its text blocks joined, else the value as JSON. */
export function answerText(result: unknown): string {
  if (isObject(result) && Array.isArray(result.content)) {
    return result.content
      .map((block) => (isObject(block) && block.type === "text" ? pretty(String(block.text)) : `[${isObject(block) ? String(block.type) : "?"}]`))
      .join("\n");
  }
  if (isObject(result) && isObject(result.error)) return `error ${String(result.error.code ?? "")}: ${String(result.error.message ?? "")}`;
  return typeof result === "string" ? result : (JSON.stringify(result, null, 2) ?? "");
}

interface TranscriptEntry {
  turn?: number;
  role?: string;
  content?: unknown;
  toolCalls?: Array<{ id?: string; name?: string; args?: unknown }>;
  toolCallId?: string;
  name?: string;
  result?: unknown;
  isError?: boolean;
  commit?: number;
  by?: string;
}

/** The messages of a trial line, user, agent and tool interleaved. */
export function messagesOf(trial: { transcript?: unknown; session?: { record?: unknown[] }; answer?: string }): Message[] {
  const calls = callsOf(trial.session?.record ?? []);
  if (Array.isArray(trial.transcript) && trial.transcript.length > 0) {
    const messages: Message[] = [];
    let next = 0;
    for (const raw of trial.transcript as TranscriptEntry[]) {
      if (!isObject(raw as unknown)) continue;
      const turn = typeof raw.turn === "number" ? raw.turn : undefined;
      if (raw.role === "tool") {
        // The record holds the same call with its server and changes: match them in order.
        const recorded = calls[next];
        next++;
        messages.push({
          role: "tool",
          turn,
          call: {
            seq: recorded?.seq ?? next,
            server: recorded?.server ?? "",
            name: String(raw.name ?? recorded?.name ?? ""),
            args: recorded?.args,
            result: raw.result ?? recorded?.result,
            isError: raw.isError === true || (recorded?.isError ?? false),
            ...(typeof raw.commit === "number" ? { commit: raw.commit } : recorded?.commit !== undefined ? { commit: recorded.commit } : {}),
            ...(recorded?.changes ? { changes: recorded.changes } : {}),
          },
        });
      } else if (raw.role === "user" || raw.role === "assistant") {
        const text = typeof raw.content === "string" ? raw.content : raw.content === undefined ? "" : JSON.stringify(raw.content);
        const asked = (raw.toolCalls ?? []).map((c) => `→ ${String(c?.name ?? "")}(${JSON.stringify(c?.args ?? {})})`).join("\n");
        if (text !== "" || asked !== "")
          messages.push({ role: raw.role, turn, text: [text, asked].filter(Boolean).join("\n"), ...(raw.by ? { by: String(raw.by) } : {}) });
      }
    }
    return messages;
  }
  const messages: Message[] = calls.map((call) => ({ role: "tool", call }));
  if (trial.answer !== undefined) messages.push({ role: "assistant", text: trial.answer });
  return messages;
}
