import { existsSync } from "node:fs";
import { join } from "node:path";
import { RUN_FILES } from "../../serve/host/index.js";
import { readRecord } from "../verify/index.js";
import type { RecordedCall, StatesByFake } from "../../core/record/index.js";
import { MAX_ANSWER_BYTES, readRunJson, readRunStates, readRunText } from "./run-files.js";

/**
 * A run to judge: the world it started from and ended in, every call it made (record lines,
 * with `commit` and `changes` on those that committed), and the agent's final message when a
 * transcript gives one.
 */
export interface Run {
  initial: StatesByFake;
  final: StatesByFake;
  calls: RecordedCall[];
  answer?: string;
  /** The agent's transcript (`transcript.json`, or what a model host kept), shown to rubric judges. */
  transcript?: unknown;
  /** False when the calls carry no commit history (a run fetched from a live server's journal). */
  history?: boolean;
  /** Where the run was read from, for messages. */
  source?: string;
}

type Message = { role?: unknown; content?: unknown; text?: unknown };

/** The text of a message's content: a string, or the text parts of a content list. */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const parts = content
      .filter((p) => p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string")
      .map((p) => (p as { text: string }).text);
    return parts.length > 0 ? parts.join("\n") : undefined;
  }
  return undefined;
}

/**
 * The agent's final message in a transcript: `{ answer }`, or the last assistant message of a
 * list of messages (`[{ role, content }]`, or `{ messages: [...] }`), content as a string or a
 * list of text parts.
 *
 * @example finalAnswer([{ role: "user", content: "hi" }, { role: "assistant", content: "Closed T-101." }]) // "Closed T-101."
 */
export function finalAnswer(transcript: unknown): string | undefined {
  // `{ messages: { messages: … } }` nested without end is walked in a loop, never recursed into.
  let value = transcript;
  while (value && typeof value === "object" && !Array.isArray(value)) {
    const t = value as { answer?: unknown; messages?: unknown };
    if (typeof t.answer === "string") return t.answer;
    value = t.messages;
  }
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return undefined;
  for (let i = value.length - 1; i >= 0; i--) {
    const message = value[i] as Message;
    if (message?.role === "assistant") {
      const text = textOf(message.content) ?? textOf(message.text);
      if (text !== undefined) return text;
    }
  }
  return undefined;
}

/**
 * Reads a run folder, as `serve --run-dir DIR` writes it: `record.jsonl`, `initial-state.json`,
 * `state.json`, and the agent's `answer.txt` or `transcript.json` when its harness wrote one.
 * Each is read as a regular file under its cap (an answer of at most 1 MiB); states must be
 * objects of fakes and entities. Throws naming the file (and line) that is missing or broken.
 *
 * @example const run = readRun("runs/close-duplicate"); judgeRun({ fakes, case: evals.cases[0], run });
 */
export function readRun(dir: string): Run {
  const initial = readRunStates(join(dir, RUN_FILES.initialState), "initial state");
  const final = readRunStates(join(dir, RUN_FILES.state), "final state");
  const recordFile = join(dir, RUN_FILES.record);
  const calls = existsSync(recordFile) ? readRecord(recordFile) : [];
  const run: Run = { initial, final, calls, source: dir };
  const answerFile = join(dir, RUN_FILES.answer);
  const transcriptFile = join(dir, RUN_FILES.transcript);
  const answer = readRunText(answerFile, MAX_ANSWER_BYTES);
  if (answer !== undefined) run.answer = answer.replace(/\n$/, "");
  // Beside answer.txt the transcript is only shown to rubric judges: one that is not JSON is left out, not fatal.
  let transcript: { value: unknown } | undefined;
  try {
    transcript = readRunJson(transcriptFile);
  } catch (error) {
    // Only a transcript that is not JSON is left out: a FIFO, a device or a link to a pseudo-file is still refused.
    if (answer === undefined || !/: not JSON$/.test((error as Error).message)) throw error;
  }
  if (transcript !== undefined) {
    run.transcript = transcript.value;
    if (answer === undefined) {
      const found = finalAnswer(transcript.value);
      if (found !== undefined && Buffer.byteLength(found) > MAX_ANSWER_BYTES)
        throw new Error(`[eval-simulate] ${transcriptFile}: its final message is larger than 1 MiB, the most an answer may be`);
      if (found !== undefined) run.answer = found;
    }
  }
  return run;
}

/** A journal entry as `/<id>/admin/calls` answers it (the fields read here). */
interface JournalCall {
  seq: number;
  fake: string;
  kind: "mcp" | "api";
  name: string;
  status: string | number;
  committed: boolean;
  input: { text: string; truncated?: boolean };
  output: { text: string; truncated?: boolean };
}

function parsed(snapshot: { text: string; truncated?: boolean } | undefined): unknown {
  if (!snapshot || snapshot.truncated) return undefined;
  try {
    return JSON.parse(snapshot.text);
  } catch {
    return snapshot.text;
  }
}

/** The most one admin answer of a live server may hold: a run folder's cap for a state file. */
const MAX_ADMIN_ANSWER_BYTES = 64 * 1024 * 1024;
/** How long one admin request (headers and body) may take. */
const ADMIN_TIMEOUT_MS = 30_000;

/**
 * One admin answer as JSON, bounded in time and size: a server that never answers, or answers
 * without end, is an error naming the address, not a verify that hangs or runs out of memory.
 */
async function adminJson(url: string, headers: Record<string, string>, limits: { timeoutMs: number; maxBytes: number }): Promise<unknown> {
  const failed = (error: unknown): never => {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") throw new Error(`[eval-simulate] GET ${url} did not answer within ${limits.timeoutMs / 1000} s`);
    throw new Error(`[eval-simulate] GET ${url} failed: ${(error as Error)?.message ?? error}`);
  };
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(limits.timeoutMs) }).catch(failed);
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(
      `[eval-simulate] GET ${url} answered ${response.status}${response.status === 401 ? ": pass the admin token (EVAL_SIMULATE_ADMIN_TOKEN)" : ""}`,
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read().catch(failed);
    if (done) break;
    size += value.byteLength;
    if (size > limits.maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`[eval-simulate] GET ${url} answered more than ${limits.maxBytes} bytes: not read further`);
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`[eval-simulate] GET ${url} answered no JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
}

/**
 * Fetches a run from a live server: every fake's initial and current state and its journal
 * (`/<id>/admin/*`, with the admin token when the server has one). The journal keeps the last
 * calls only (`journalLimit`) and no commit history, so milestones and `never` are not
 * evaluated on a fetched run: judge a run folder for those. Each answer is bounded: 30 s and
 * 64 MiB unless `timeoutMs` and `maxBytes` say otherwise.
 *
 * @example const run = await fetchRun("http://127.0.0.1:7353", ["tickets"], { token: process.env.EVAL_SIMULATE_ADMIN_TOKEN });
 */
export async function fetchRun(
  server: string,
  ids: readonly string[],
  options: { token?: string; answer?: string; timeoutMs?: number; maxBytes?: number } = {},
): Promise<Run> {
  const base = server.replace(/\/+$/, "");
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const limits = { timeoutMs: options.timeoutMs ?? ADMIN_TIMEOUT_MS, maxBytes: options.maxBytes ?? MAX_ADMIN_ANSWER_BYTES };
  const get = (path: string) => adminJson(`${base}${path}`, headers, limits);
  const initial: StatesByFake = {};
  const final: StatesByFake = {};
  const entries: JournalCall[] = [];
  for (const id of ids) {
    initial[id] = (await get(`/${id}/admin/initial-state`)) as Record<string, unknown>;
    final[id] = (await get(`/${id}/admin/state`)) as Record<string, unknown>;
    entries.push(...((await get(`/${id}/admin/calls`)) as { calls: JournalCall[] }).calls);
  }
  entries.sort((a, b) => a.seq - b.seq);
  const calls: RecordedCall[] = entries.map((entry) =>
    entry.kind === "mcp"
      ? { server: entry.fake, tool: entry.name, args: parsed(entry.input), result: { isError: entry.status !== "ok", output: parsed(entry.output) } }
      : { api: entry.fake, operation: entry.name, request: parsed(entry.input), response: parsed(entry.output) },
  );
  return { initial, final, calls, history: false, source: base, ...(options.answer === undefined ? {} : { answer: options.answer }) };
}
