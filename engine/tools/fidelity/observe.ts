import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, sep } from "node:path";
import { isMap, parseDocument } from "yaml";
import { decodeToon, encodeToon } from "../../author/contract/index.js";
import { connectMcpTarget, type McpServerTarget } from "../../author/capture/index.js";
import type { ObservedAnswer, ObservedFile } from "../checks/index.js";
import { answerText, callForAnswer, type CallAnswer, type ToolCaller } from "./call-answer.js";
import type { ReplayCall } from "./calls-file.js";
import { inferSchema } from "./infer-schema.js";

/** One successful answer of a tool: its text, and its structured content when it had one. */
interface Sample {
  text: string;
  structured?: unknown;
}

/** How one sample reads, before the samples of a tool are merged. */
type Reading =
  | { format: "structured"; value: unknown; text: "json" | "json-pretty" | "text"; firstLine: string }
  | { format: "json"; value: unknown }
  | { format: "prefixed_json"; value: unknown; prefix: string; suffix: string }
  | { format: "toon"; value: unknown; canonical: boolean }
  | { format: "text"; firstLine: string };

/** How a first line is held: its first three words (or all of it, when shorter). */
function lineStart(text: string): string {
  const first = text.split("\n")[0];
  return first.split(" ").slice(0, 3).join(" ");
}

function jsonForm(text: string): "json" | "json-pretty" | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (JSON.stringify(value) === text) return "json";
  if (JSON.stringify(value, null, 2) === text) return "json-pretty";
  return undefined;
}

/** How one successful answer is written. */
export function readSample(sample: Sample): Reading {
  const { text } = sample;
  if (sample.structured !== undefined) return { format: "structured", value: sample.structured, text: jsonForm(text) ?? "text", firstLine: lineStart(text) };
  try {
    return { format: "json", value: JSON.parse(text) };
  } catch {
    // not JSON: read on
  }
  const toon = /^[\w"-]+(\[\d+\])?(\{[^}]*\})?:/m.test(text) ? decodeToon(text) : undefined;
  if (toon?.ok && toon.value !== null && typeof toon.value === "object")
    return { format: "toon", value: toon.value, canonical: encodeToon(toon.value) === text };
  const embedded = /^([^{[]*?)([{[][\s\S]*[}\]])([^}\]]*)$/.exec(text);
  if (embedded && embedded[1] !== "") {
    try {
      return { format: "prefixed_json", value: JSON.parse(embedded[2]), prefix: embedded[1], suffix: embedded[3] };
    } catch {
      // not JSON between them: read on
    }
  }
  return { format: "text", firstLine: lineStart(text) };
}

const distinct = (items: string[]) => [...new Set(items)];

/**
 * One tool's observation from its successful answers: the format they share (or `mixed`), the
 * schema their values fit, and the affixes, first lines or text form they were written with.
 *
 * @example observeTool([{ text: '{"id":"a"}' }]); // { format: "json", schema: { type: "object", ... } }
 */
export function observeTool(samples: Sample[]): ObservedAnswer {
  const readings = samples.map(readSample);
  const formats = distinct(readings.map((r) => r.format));
  if (formats.length > 1) return { format: "mixed" };
  const values = readings.map((r) => ("value" in r ? r.value : undefined));
  switch (formats[0]) {
    case "structured": {
      const forms = distinct(readings.map((r) => (r as Extract<Reading, { format: "structured" }>).text));
      // A tool writing compact JSON for `{}`/`[]` and indented JSON elsewhere is indented: both agree on those.
      const text = forms.length === 1 ? forms[0] : forms.every((f) => f !== "text") ? "json-pretty" : "text";
      const prefixes = text === "text" ? distinct(readings.map((r) => (r as Extract<Reading, { format: "structured" }>).firstLine)) : [];
      return { format: "structured", schema: inferSchema(values), text, ...(prefixes.length > 0 && { prefixes }) } as ObservedAnswer;
    }
    case "prefixed_json": {
      const typed = readings as Array<Extract<Reading, { format: "prefixed_json" }>>;
      const suffixes = distinct(typed.map((r) => r.suffix)).filter((s) => s !== "");
      return { format: "prefixed_json", schema: inferSchema(values), prefixes: distinct(typed.map((r) => r.prefix)), ...(suffixes.length > 0 && { suffixes }) };
    }
    case "toon":
      return { format: "toon", schema: inferSchema(values), canonical: readings.every((r) => (r as Extract<Reading, { format: "toon" }>).canonical) };
    case "text":
      return { format: "text", prefixes: distinct(readings.map((r) => (r as Extract<Reading, { format: "text" }>).firstLine)) };
    default:
      return { format: "json", schema: inferSchema(values) };
  }
}

/** What `observe` runs: the calls and the real server. */
export interface ObserveOptions {
  calls: ReplayCall[];
  target: McpServerTarget;
  /** The server's name written in the file (informative). */
  server?: string;
  /** Where to write observed.json; nothing is written when unset. */
  out?: string;
  timeoutMs?: number;
}

/**
 * Runs the calls on the real server and summarises its successful answers per tool in the
 * observed.json format (engine/tools/checks/observed-format.md); tool errors and refused calls are
 * counted out. Writes the file when `out` is set.
 *
 * @example await observe({ calls: readCalls("calls.yaml"), target: { command: ["npx", "mcp-server-memory"] }, out: "mcp/memory/observed.json" });
 */
export async function observe(options: ObserveOptions): Promise<{ observed: ObservedFile; answers: Array<{ call: ReplayCall; answer: CallAnswer }> }> {
  const { client } = await connectMcpTarget(options.target, { name: "eval-simulate-observe", timeoutMs: options.timeoutMs });
  const answers: Array<{ call: ReplayCall; answer: CallAnswer }> = [];
  try {
    // Resource reads are not tool answers: observed.json holds tools only.
    for (const call of options.calls.filter((c) => c.read === undefined))
      answers.push({ call, answer: await callForAnswer(client as unknown as ToolCaller, call.tool, call.args, options.timeoutMs) });
  } finally {
    await client.close().catch(() => undefined);
  }
  const samples = new Map<string, Sample[]>();
  for (const { call, answer } of answers) {
    if (!answer.result || answer.result.isError) continue;
    const list = samples.get(call.tool) ?? [];
    list.push({ text: answerText(answer), ...(answer.result.structuredContent !== undefined && { structured: answer.result.structuredContent }) });
    samples.set(call.tool, list);
  }
  const tools: ObservedFile["tools"] = {};
  for (const [tool, list] of samples) tools[tool] = { sampled: list.length, answer: observeTool(list) };
  const observed: ObservedFile = { version: 1, ...(options.server !== undefined && { server: options.server }), observedAt: new Date().toISOString(), tools };
  if (options.out !== undefined) {
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify(observed, null, 2)}\n`);
  }
  return { observed, answers };
}

/**
 * Records in the manifest where the fake's observed.json is (`servers.<id>.observed`, relative
 * to the manifest), keeping its comments, so `check` reads it without being told. A manifest
 * that does not declare the server, or already names this file, is left as it is; returns
 * whether it was changed.
 *
 * @example recordObserved("fakes.yaml", "memory", "/recipe/mcp/memory/observed.json"); // true
 */
export function recordObserved(manifestFile: string, id: string, out: string): boolean {
  if (!existsSync(manifestFile)) return false;
  const doc = parseDocument(readFileSync(manifestFile, "utf8"));
  if (doc.errors.length > 0 || !isMap(doc.getIn(["servers", id]))) return false;
  const path = relative(dirname(manifestFile), out).split(sep).join("/");
  if (doc.getIn(["servers", id, "observed"]) === path) return false;
  doc.setIn(["servers", id, "observed"], path);
  writeFileSync(manifestFile, doc.toString({ lineWidth: 0 }));
  return true;
}
