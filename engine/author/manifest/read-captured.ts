import type { RecipeFiles } from "./recipe-files.js";
import type { Report } from "../source/index.js";
import { type PathSegment, SourceDocument } from "../source/index.js";
import type { CapturedTool } from "../model/index.js";

/** A capture file's contents: the tools, and what else a capture of a real server holds. */
export interface CapturedServer {
  tools: CapturedTool[];
  file?: string;
  serverInfo?: { name: string; version: string; [key: string]: unknown };
  instructions?: string;
  resources?: Array<Record<string, unknown>>;
  resourceTemplates?: Array<Record<string, unknown>>;
  prompts?: Array<Record<string, unknown>>;
}

/**
 * A server's captured tools/list: from a JSON or YAML file, or inline. Accepts the result
 * (`{ tools: [...] }`) or the bare array. Problems inside the file point into that file.
 */
export function readCaptured(value: unknown, path: readonly PathSegment[], files: RecipeFiles, report: Report): CapturedServer | undefined {
  let data = value;
  let file: string | undefined;
  let text = "";
  // Positions are read only to report a problem: JSON.parse is many times faster than a parse
  // that keeps them, and a capture file is often shared by many servers.
  let positions: SourceDocument | undefined;
  const source = () => (positions ??= new SourceDocument(file as string, text));
  if (typeof value === "string") {
    const read = files.read(value);
    file = read.file;
    if (!read.ok) {
      report.error("E_IO", path, `cannot read the capture ${value}: it ${read.reason}`);
      return undefined;
    }
    text = read.text;
    const json = file.endsWith(".json") ? tryJson(text) : undefined;
    if (json !== undefined) data = json;
    else {
      for (const problem of source().problems) {
        report.error("E_FILE_PARSE", path, `${value}: ${problem.message}`, { in: { file, position: problem.position } });
      }
      if (source().problems.length > 0) return undefined;
      data = source().value;
    }
  }
  const list = Array.isArray(data) ? data : (data as { tools?: unknown } | null)?.tools;
  const listPath: PathSegment[] = Array.isArray(data) ? [] : ["tools"];
  const where = (at: PathSegment[]) => (file ? { in: { file, position: source().positionOf(at) } } : {});
  if (!Array.isArray(list)) {
    report.error("E_CAPTURE_INVALID", path, "the capture holds no tools list", where([]));
    return undefined;
  }
  const tools: CapturedTool[] = [];
  const names = new Set<string>();
  list.forEach((tool, index) => {
    const at = [...listPath, index];
    if (!tool || typeof tool !== "object" || typeof (tool as CapturedTool).name !== "string") {
      report.error("E_CAPTURE_INVALID", [...path], `captured tool #${index + 1} has no name`, where(at));
      return;
    }
    const captured = tool as CapturedTool;
    const input = captured.inputSchema;
    if (input !== undefined && (typeof input !== "object" || input === null || (input.type !== undefined && input.type !== "object"))) {
      report.error(
        "E_CAPTURE_INVALID",
        path,
        `captured tool "${captured.name}" has an inputSchema that is not an object schema`,
        where([...at, "inputSchema"]),
      );
      return;
    }
    if (names.has(captured.name)) {
      report.error("E_CAPTURE_INVALID", path, `the capture lists the tool "${captured.name}" twice`, where(at));
      return;
    }
    names.add(captured.name);
    tools.push(captured);
  });
  const extra = capturedExtras(Array.isArray(data) ? undefined : (data as Record<string, unknown>));
  return { tools, file, ...extra };
}

/** The server info, instructions, resource and prompt lists a capture of a real server holds beside its tools. */
function capturedExtras(data: Record<string, unknown> | undefined): Omit<CapturedServer, "tools" | "file"> {
  if (!data) return {};
  const extra: Omit<CapturedServer, "tools" | "file"> = {};
  const info = data.serverInfo as CapturedServer["serverInfo"] | undefined;
  if (info && typeof info.name === "string" && typeof info.version === "string") extra.serverInfo = info;
  if (typeof data.instructions === "string") extra.instructions = data.instructions;
  const objects = (list: unknown) => (Array.isArray(list) ? list.filter((e): e is Record<string, unknown> => !!e && typeof e === "object") : undefined);
  const resources = objects(data.resources);
  if (resources) extra.resources = resources;
  const templates = objects(data.resourceTemplates);
  if (templates) extra.resourceTemplates = templates;
  const prompts = objects(data.prompts);
  if (prompts) extra.prompts = prompts;
  return extra;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
