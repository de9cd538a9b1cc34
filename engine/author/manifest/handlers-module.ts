// biome-ignore-all lint/suspicious/noExplicitAny: a handlers module's functions are the user's, of any signature.
import { importUserModule } from "../source/index.js";
import type { RecipeFiles } from "./recipe-files.js";
import type { Report } from "../source/index.js";
import type { PathSegment } from "../source/index.js";

export type HandlerFunctions = Record<string, (...args: any[]) => unknown>;

/** A loaded handlers module; `failed` when it could not be loaded (already reported). */
export interface HandlersModule {
  file: string;
  handlers: HandlerFunctions;
  failed?: boolean;
}

/**
 * Loads a fake's handlers module and returns its default export's functions by name, reporting
 * a module that is missing, fails to load, or exports something else.
 */
export async function loadHandlersModule(relative: string, path: readonly PathSegment[], files: RecipeFiles, report: Report): Promise<HandlersModule> {
  const located = files.locate(relative);
  const file = located.file;
  if (!located.ok) {
    report.error("E_IO", path, `the handlers module ${relative} ${located.reason}`);
    return { file, handlers: {}, failed: true };
  }
  let exported: Record<string, unknown>;
  try {
    exported = await importUserModule(file);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    // A syntax error points into the module (jiti ends its message with "file:line:column").
    const at = syntaxErrorPosition(error, file);
    report.error(
      "E_HANDLER_MODULE",
      path,
      `the handlers module ${relative} failed to load: ${message.trim()}${at ? ` at ${relative}:${at.line}:${at.column}` : ""}`,
      at ? { in: { file, position: at } } : {},
    );
    return { file, handlers: {}, failed: true };
  }
  const handlers = exported.default;
  if (!handlers || typeof handlers !== "object") {
    report.error("E_HANDLER_MODULE", path, `the handlers module ${relative} has no default export of handlers`, {
      hint: 'export default defineHandlers({ "tool-name": (args, context) => ... })',
    });
    return { file, handlers: {}, failed: true };
  }
  const functions: HandlerFunctions = {};
  for (const [name, fn] of Object.entries(handlers)) {
    if (typeof fn === "function") functions[name] = fn as HandlerFunctions[string];
    else report.error("E_HANDLER_MODULE", path, `the handlers module ${relative} exports "${name}" as ${typeof fn}, not a function`);
  }
  return { file, handlers: functions };
}

/** Where in `file` a load error says it happened: jiti's "file:line:column" (its column counts from 0). */
function syntaxErrorPosition(error: unknown, file: string): { line: number; column: number } | undefined {
  // Only the message: a stack frame of a module that failed for another reason is no syntax error's place.
  const text = error instanceof Error ? error.message : String(error);
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`(?:file://)?${escaped}:(\\d+):(\\d+)`).exec(text);
  return match ? { line: Number(match[1]), column: Number(match[2]) + 1 } : undefined;
}
