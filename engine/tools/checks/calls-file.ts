import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** One call to replay: a tool (of `server`, when the list names several), its arguments; or a resource read. */
export interface ReplayCall {
  server?: string;
  /** The tool; `resources/read` for a resource read. */
  tool: string;
  /** A resource read's URI (`{ read: "<uri>" }` in a list). */
  read?: string;
  args: Record<string, unknown>;
  /** What replay leaves out of this call's answers (`--ignore`'s forms: a JSON path, a /regex/, a shape). */
  ignore?: string[];
  /** Where it was read from (file:line for a record line, file#index for a list). */
  from: string;
}

/**
 * The calls a file lists: a record (`serve --record`, one `{ server, tool, args, result }` JSON
 * object a line) or a YAML/JSON list of `{ tool, args?, server?, ignore? }` or `{ read: "<resource uri>" }`
 * (bare, or under `calls`).
 * Throws, naming the entry, on anything else.
 *
 * @example readCalls("tests/memory-calls.yaml"); // [{ tool: "read_graph", args: {}, from: "…#1" }]
 */
export function readCalls(file: string): ReplayCall[] {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const jsonl = file.endsWith(".jsonl") || (lines.length > 1 && lines.every((line) => line.trimStart().startsWith("{")));
  const entries: Array<{ value: unknown; from: string }> = jsonl
    ? text.split("\n").flatMap((line, i) => (line.trim() === "" ? [] : [{ value: parseLine(line, `${file}:${i + 1}`), from: `${file}:${i + 1}` }]))
    : listOf(parse(text), file);
  return entries.map(({ value, from }) => {
    const call = value as { server?: unknown; tool?: unknown; args?: unknown; arguments?: unknown; read?: unknown; ignore?: unknown };
    if (call?.ignore !== undefined && (!Array.isArray(call.ignore) || !call.ignore.every((i) => typeof i === "string")))
      throw new Error(`[eval-simulate] ${from}: ignore is a list of JSON paths, /regexes/ and shapes (strings)`);
    const ignore = call?.ignore === undefined ? {} : { ignore: call.ignore as string[] };
    if (typeof call?.read === "string")
      return {
        ...(typeof call.server === "string" && { server: call.server }),
        tool: "resources/read",
        read: call.read,
        args: { uri: call.read },
        ...ignore,
        from,
      };
    if (!call || typeof call !== "object" || typeof call.tool !== "string")
      throw new Error(`[eval-simulate] ${from}: a call is { tool, args }, not ${JSON.stringify(value)?.slice(0, 80)}`);
    const args = call.args ?? call.arguments ?? {};
    if (typeof args !== "object" || args === null || Array.isArray(args))
      throw new Error(`[eval-simulate] ${from}: the arguments of "${call.tool}" are not an object`);
    return { ...(typeof call.server === "string" && { server: call.server }), tool: call.tool, args: args as Record<string, unknown>, ...ignore, from };
  });
}

function parseLine(line: string, from: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new Error(`[eval-simulate] ${from} is not JSON: ${(error as Error).message}`);
  }
}

function listOf(value: unknown, file: string): Array<{ value: unknown; from: string }> {
  const list = Array.isArray(value) ? value : (value as { calls?: unknown } | null)?.calls;
  if (!Array.isArray(list)) throw new Error(`[eval-simulate] ${file} holds no list of calls (a YAML/JSON list of { tool, args }, or a record's JSON lines)`);
  return list.map((entry, i) => ({ value: entry, from: `${file}#${i + 1}` }));
}
