/**
 * A fake's answers by tool name, from whichever form the caller holds: contract entries
 * (`contractOf`), the `answers.json` that `serve --manifest-dir` writes, a `ServerManifest`
 * (`loadManifest(...).servers[i]`), or a fake from `loadFakes`.
 */
import type { AnswerSpec } from "../contract/index.js";

/** Each tool's answer, by tool name; `id` is the fake's when the source names it. */
export interface AnswerEntries {
  id?: string;
  entries: Record<string, { answer: AnswerSpec }>;
}

/** What `answered` accepts as a fake's contract. */
export type AnswerSource =
  | Record<string, { answer: AnswerSpec }>
  | Record<string, AnswerSpec>
  | { id?: string; tools: ReadonlyArray<{ name: string; answer: AnswerSpec }> }
  | { kind: "mcp"; manifest: { id?: string; tools: ReadonlyArray<{ name: string; answer: AnswerSpec }> } }
  // An API fake (or its manifest) is accepted so any fake from loadFakes type-checks; it has no
  // tool answers, and answered() says so.
  | { kind: "api"; manifest: { id: string } }
  | { id: string; operations: readonly unknown[] };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isAnswer(value: unknown): value is AnswerSpec {
  return isObject(value) && typeof value.format === "string";
}

/**
 * Each tool's answer by name, whatever form the contract came in. Throws for a value that is
 * none of them, naming the tool, since a tool without an answer could not be read.
 *
 * @example
 * answerEntries(JSON.parse(readFileSync("manifests/mcp/mail/answers.json", "utf8"))).entries["send-email"].answer.format;
 * // "prefixed_json"
 */
export function answerEntries(source: AnswerSource): AnswerEntries {
  const raw: unknown = source;
  if (!isObject(raw)) throw new Error("[eval-simulate] a fake's contract must be an object of tool entries or answers");
  const manifest = (raw.kind === "mcp" || raw.kind === "api") && isObject(raw.manifest) ? raw.manifest : raw;
  if (raw.kind === "api" || Array.isArray(manifest.operations)) {
    throw new Error(`[eval-simulate] "${String(manifest.id)}" is an API fake: it has no tool answers to read; read its record lines' responses instead`);
  }
  if (Array.isArray(manifest.tools)) {
    const entries: AnswerEntries["entries"] = {};
    for (const tool of manifest.tools as Json[]) {
      if (typeof tool?.name !== "string" || !isAnswer(tool.answer)) {
        throw new Error(`[eval-simulate] the manifest's tool ${JSON.stringify(tool?.name)} has no answer to read its results by`);
      }
      entries[tool.name] = { answer: tool.answer };
    }
    return { ...(typeof manifest.id === "string" ? { id: manifest.id } : {}), entries };
  }
  const entries: AnswerEntries["entries"] = {};
  for (const [name, value] of Object.entries(raw)) {
    if (isObject(value) && isAnswer(value.answer)) entries[name] = { answer: value.answer };
    else if (isAnswer(value)) entries[name] = { answer: value };
    else throw new Error(`[eval-simulate] "${name}" is neither a contract entry ({ answer }) nor an answer ({ format, … })`);
  }
  return { entries };
}
