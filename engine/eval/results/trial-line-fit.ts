/**
 * A trial's line kept within bounds, as the command host keeps an agent's output: an answer of
 * at most 1 MiB (the judge reads the same cut answer), a stored record of at most 1 MiB, and
 * evidence cut before a line could pass the results file's line cap. What was cut is said on
 * the line, so a report never passes a shortened record off as whole.
 */
import type { RecordedCall } from "../../core/record/index.js";
import { MAX_ANSWER_BYTES } from "../../judge/evals/index.js";

/** The most of a trial's record its line stores: 1 MiB of JSON, as the command host keeps of an agent's output. */
export const MAX_STORED_RECORD_BYTES = 1024 * 1024;

/** The most a line's assertion messages keep once its evidence has been cut. */
const MESSAGE_CHARS = 2_000;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "");

/**
 * An answer cut to 1 MiB of UTF-8 (never inside a character), and its length when it was cut.
 *
 * @example capAnswer("x".repeat(2 << 20)) // { answer: "xxx…" (1 MiB), bytes: 2097152 }
 */
export function capAnswer(answer: string): { answer: string; bytes?: number } {
  const bytes = Buffer.byteLength(answer);
  if (bytes <= MAX_ANSWER_BYTES) return { answer };
  const cut = Buffer.from(answer)
    .subarray(0, MAX_ANSWER_BYTES)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return { answer: cut, bytes };
}

/** A call as a stored record keeps it when its arguments and answer do not fit: who was called. */
function nameOnly(call: RecordedCall): RecordedCall {
  return "server" in call
    ? { server: call.server, tool: call.tool, args: undefined, result: undefined }
    : { api: call.api, operation: call.operation, request: undefined, response: undefined };
}

/**
 * A record within `MAX_STORED_RECORD_BYTES`: calls kept whole while they fit, then by name only
 * (server and tool), then no more; `truncated` counts what was kept when anything was cut.
 *
 * @example const { record, truncated } = capRecord(calls);
 */
export function capRecord(
  record: readonly RecordedCall[],
  maxBytes = MAX_STORED_RECORD_BYTES,
): { record: RecordedCall[]; truncated?: { calls: number; whole: number; named: number } } {
  const kept: RecordedCall[] = [];
  let used = 2;
  let whole = 0;
  for (const call of record) {
    const size = bytesOf(call) + 1;
    if (whole === kept.length && used + size <= maxBytes) {
      kept.push(call);
      whole++;
      used += size;
      continue;
    }
    const named = nameOnly(call);
    const small = bytesOf(named) + 1;
    if (used + small > maxBytes) break;
    kept.push(named);
    used += small;
  }
  if (kept.length === whole && whole === record.length) return { record: kept };
  return { record: kept, truncated: { calls: record.length, whole, named: kept.length - whole } };
}

/**
 * A line with each assertion's evidence cut (its message kept, shortened), saying so with
 * `evidenceCut`: what a line past the results file's line cap is written as.
 *
 * @example if (Buffer.byteLength(text) > RESULTS_LIMITS.maxLineBytes) text = JSON.stringify(cutEvidence(line));
 */
export function cutEvidence<T extends { assertions: unknown[] }>(line: T): T & { evidenceCut: true } {
  const assertions = line.assertions.map((a) => {
    if (!a || typeof a !== "object") return a;
    const { evidence: _evidence, ...rest } = a as { evidence?: unknown; message?: unknown };
    return typeof rest.message === "string" && rest.message.length > MESSAGE_CHARS ? { ...rest, message: `${rest.message.slice(0, MESSAGE_CHARS)}…` } : rest;
  });
  return { ...line, assertions, evidenceCut: true };
}

/** The most of a conversation's transcript a line stores: 4 MiB of JSON. */
export const MAX_STORED_TRANSCRIPT_BYTES = 4 * 1024 * 1024;

/** A message shortened to what says who spoke when: contents cut, results left out. */
function shortened<T extends { content?: string; result?: unknown }>(message: T): T {
  const { result: _result, ...rest } = message;
  return (rest.content !== undefined && rest.content.length > MESSAGE_CHARS ? { ...rest, content: `${rest.content.slice(0, MESSAGE_CHARS)}…` } : rest) as T;
}

/**
 * A transcript within `maxBytes`: messages kept whole while they fit, then shortened (content
 * cut, tool results left out), then no more; `cut` says how many there were and were kept whole.
 *
 * @example const { transcript, cut } = capTranscript(conversation.transcript);
 */
export function capTranscript<T extends { content?: string; result?: unknown }>(
  transcript: readonly T[],
  maxBytes = MAX_STORED_TRANSCRIPT_BYTES,
): { transcript: T[]; cut?: { messages: number; whole: number } } {
  const kept: T[] = [];
  let used = 2;
  let whole = 0;
  for (const message of transcript) {
    const size = bytesOf(message) + 1;
    if (whole === kept.length && used + size <= maxBytes) {
      kept.push(message);
      whole++;
      used += size;
      continue;
    }
    const small = shortened(message);
    const smallSize = bytesOf(small) + 1;
    if (used + smallSize > maxBytes) break;
    kept.push(small);
    used += smallSize;
  }
  return whole === transcript.length ? { transcript: kept } : { transcript: kept, cut: { messages: transcript.length, whole } };
}
