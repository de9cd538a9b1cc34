import type { RunLimits } from "./jsonata-guard.js";
import { type RunStop, findStop } from "./jsonata-guard.js";
import { NotJsonError } from "./jsonata-plain.js";
import { type SourceSpan, errorSpan } from "./jsonata-position.js";

/** Where in a handler a problem is: `[]` for the expression form, `["let", "id"]`, `["fail", 0, "if"]`, `["return"]`. */
export type HandlerPath = ReadonlyArray<string | number>;

/** A handler stopped by a limit, a non-JSON result, or an error jsonata raised while evaluating. */
export type RuntimeErrorCode =
  | "E_HANDLER_TIMEOUT"
  | "E_HANDLER_DEPTH"
  | "E_HANDLER_ABORTED"
  | "E_HANDLER_TOO_LARGE"
  | "E_HANDLER_NOT_JSON"
  | "E_JSONATA_RUNTIME";

/**
 * An error while running a JSONata handler: which part of the block, where in that part's source
 * (a character offset, when jsonata said), and the code of jsonata's own error when there is one.
 * The MCP or API layer turns it into a tool error; the state is left as it was.
 *
 * @example
 * try { await runJsonataHandler(handler, input) }
 * catch (error) { if (error instanceof JsonataRuntimeError && error.code === "E_HANDLER_TIMEOUT") ... }
 */
export class JsonataRuntimeError extends Error {
  readonly code: RuntimeErrorCode;
  /** jsonata's code (`T2002`, `D1012`, …) when the error came from jsonata. */
  readonly jsonataCode?: string;
  readonly path: HandlerPath;
  /** Offset of the offending token in the part's source. */
  readonly offset?: number;
  readonly length?: number;

  constructor(init: { code: RuntimeErrorCode; message: string; path: HandlerPath; jsonataCode?: string; offset?: number; length?: number }) {
    super(init.message);
    this.name = "JsonataRuntimeError";
    this.code = init.code;
    this.path = init.path;
    if (init.jsonataCode !== undefined) this.jsonataCode = init.jsonataCode;
    if (init.offset !== undefined) this.offset = init.offset;
    if (init.length !== undefined) this.length = init.length;
  }
}

/** What the conversion needs to know about the part that failed. */
export interface FailedPart {
  source: string;
  path: HandlerPath;
  limits: RunLimits;
  maxSequence: number;
  maxStringLength: number;
}

/** "set.notes", "fail[0].if", or "the expression". */
export function describePath(path: HandlerPath): string {
  if (path.length === 0) return "the expression";
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? part : `.${part}`)).join("");
}

/**
 * Any error out of an evaluation (a limit's stop, jsonata's plain-object error, an Error thrown
 * by a bound function, a non-JSON result) as a JsonataRuntimeError.
 *
 * @example throw toRuntimeError(caught, { source, path: ["return"], limits, maxSequence, maxStringLength });
 */
export function toRuntimeError(error: unknown, part: FailedPart): JsonataRuntimeError {
  if (error instanceof JsonataRuntimeError) return error;
  const where = describePath(part.path);
  const base = { path: part.path };
  if (error instanceof NotJsonError) {
    return new JsonataRuntimeError({ ...base, code: "E_HANDLER_NOT_JSON", message: `[eval-simulate] ${where} of the JSONata handler gave ${error.message}` });
  }
  const stop = findStop(error);
  const e = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; message?: unknown; value?: unknown };
  const span: Partial<SourceSpan> = errorSpan(part.source, stop ?? e) ?? {};
  const jsonataCode = typeof e.code === "string" ? e.code : undefined;
  if (stop?.reason === "timeout" || jsonataCode === "D1012") {
    return new JsonataRuntimeError({
      ...base,
      ...span,
      code: "E_HANDLER_TIMEOUT",
      jsonataCode: "D1012",
      message: `[eval-simulate] the JSONata handler ran past its ${part.limits.timeoutMs} ms limit`,
    });
  }
  if (stop?.reason === "stalled") {
    return new JsonataRuntimeError({
      ...base,
      code: "E_HANDLER_TIMEOUT",
      message: `[eval-simulate] the JSONata handler blocked the process for over ${stop.detail} in one step and was stopped by the watchdog; nothing was changed`,
    });
  }
  if (stop?.reason === "depth" || jsonataCode === "D1011") {
    return new JsonataRuntimeError({
      ...base,
      ...span,
      code: "E_HANDLER_DEPTH",
      jsonataCode: "D1011",
      message: `[eval-simulate] the JSONata handler nested evaluations deeper than its limit of ${part.limits.maxDepth} (in ${where}); a recursive function that never ends, or one too deep to run`,
    });
  }
  if (stop?.reason === "aborted") {
    return new JsonataRuntimeError({ ...base, code: "E_HANDLER_ABORTED", message: "[eval-simulate] the JSONata handler was cancelled" });
  }
  if (stop?.reason === "too-large" || jsonataCode === "D2014" || jsonataCode === "D2015") {
    return new JsonataRuntimeError({
      ...base,
      ...span,
      code: "E_HANDLER_TOO_LARGE",
      ...(jsonataCode ? { jsonataCode } : {}),
      message: tooLargeMessage(stop, e.value, part, where),
    });
  }
  const text = typeof e.message === "string" && e.message !== "" ? e.message : String(error);
  return new JsonataRuntimeError({
    ...base,
    ...span,
    code: "E_JSONATA_RUNTIME",
    ...(jsonataCode ? { jsonataCode } : {}),
    message: `[eval-simulate] JSONata error in ${where}${span.offset === undefined ? "" : ` at offset ${span.offset}`}: ${text}${jsonataCode ? ` (${jsonataCode})` : ""}`,
  });
}

function tooLargeMessage(stop: RunStop | undefined, value: unknown, part: FailedPart, where: string): string {
  const detail = stop?.detail;
  if (stop?.refusal) return `[eval-simulate] the JSONata handler ${stop.refusal} (in ${where})`;
  if (detail === "memory") return "[eval-simulate] the JSONata handler filled the process's memory and was stopped";
  const built =
    detail ?? (typeof value === "number" && value > part.maxSequence ? `a sequence of ${value} items` : `a sequence of more than ${part.maxSequence} items`);
  const limit = built.includes("character") ? `${part.maxStringLength} characters` : `${part.maxSequence} items`;
  return `[eval-simulate] the JSONata handler built ${built} in ${where}, past its limit of ${limit}`;
}
