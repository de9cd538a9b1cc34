/**
 * A model request's normalised form: what a recording is matched by. Its API and JSON body with
 * every secret redacted, object keys sorted (so key order never matters), and, as the case's
 * `match.ignore` says, tool call ids numbered by first use, ISO 8601 times and tool results'
 * text replaced by placeholders: what differs from run to run without the agent behaving
 * differently.
 */
import type { ModelCall } from "../../serve/models/index.js";
import { redact, secretNames } from "../../serve/journal/index.js";

/** What a replayed request may differ in from its recording. */
export type IgnoredPart = "ids" | "timestamps" | "toolResults";

/** The form requests are stored and matched in. */
export interface NormalisedRequest {
  /** `openai/chat`, `openai/responses`, `anthropic/messages`. */
  api: string;
  body: unknown;
}

/** The fields whose strings are ids a provider or an SDK made up, by API. */
const ID_FIELDS = new Set(["id", "tool_call_id", "tool_use_id", "call_id"]);

/** An ISO 8601 time (a date, or a date and time with or without a zone). */
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g;

/** How deep a body is followed; deeper values are kept as they are (a request is JSON the port capped at 8 MiB). */
const MAX_DEPTH = 64;

const names = secretNames();

/** Whether a message or block is a tool's result, whose text `toolResults` ignores. */
function toolResultField(node: Record<string, unknown>): string | undefined {
  if (node.role === "tool" && "content" in node) return "content"; // OpenAI chat
  if (node.type === "function_call_output" && "output" in node) return "output"; // OpenAI responses
  if (node.type === "tool_result" && "content" in node) return "content"; // Anthropic
  return undefined;
}

/**
 * The request's normalised form.
 *
 * @example normaliseRequest({ provider: "openai", api: "chat", body }, ["ids"]).api // "openai/chat"
 */
export function normaliseRequest(call: Pick<ModelCall, "provider" | "api" | "body">, ignore: readonly IgnoredPart[] = ["ids"]): NormalisedRequest {
  return { api: `${call.provider}/${call.api}`, body: normaliseBody(call.body, ignore) };
}

/**
 * A request body's normalised form; normalising a normalised body again changes nothing, so a
 * recording is matched under the case's `match` as it is now, not as it was when recorded.
 *
 * @example normaliseBody({ b: 1, a: "2026-10-01" }, ["timestamps"]) // { a: "<timestamp>", b: 1 }
 */
export function normaliseBody(body: unknown, ignore: readonly IgnoredPart[] = ["ids"]): unknown {
  const ids = new Map<string, string>();
  const idOf = (value: string) => {
    if (!ids.has(value)) ids.set(value, `<id ${ids.size + 1}>`);
    return ids.get(value)!;
  };
  const text = (value: string) => (ignore.includes("timestamps") ? value.replace(TIMESTAMP, "<timestamp>") : value);
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") return text(value);
    if (!value || typeof value !== "object" || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
    const node = value as Record<string, unknown>;
    const result = ignore.includes("toolResults") ? toolResultField(node) : undefined;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node).sort()) {
      const item = node[key];
      if (key === result) out[key] = "<tool result>";
      else if (ignore.includes("ids") && ID_FIELDS.has(key) && typeof item === "string") out[key] = idOf(item);
      else out[key] = walk(item, depth + 1);
    }
    return out;
  };
  return walk(redact(body, names), 0);
}
