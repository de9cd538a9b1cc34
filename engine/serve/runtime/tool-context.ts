import { answerResult, describeJsonValueProblem, jsonValueProblem, MAX_MESSAGE_DEPTH, notImplemented, structured, text } from "../../author/contract/index.js";
import { type ElicitAnswer, type LogLevel, type ToolContext, ToolFailure } from "../../author/handlers/index.js";
import { labelId } from "../../author/world/index.js";
import type { CompiledTool } from "./compiled-fake.js";

/**
 * A handler's plain value, refused (as a tool error that changes nothing) when its encoding
 * would not say what it holds: JSON writes Infinity and NaN as null.
 *
 * @example plainAnswer({ count: 1 }, "notes/count"); // { count: 1 }; { count: Infinity } throws a ToolFailure
 */
export function plainAnswer(value: unknown, what: string): unknown {
  const problem = jsonValueProblem(value, { maxDepth: MAX_MESSAGE_DEPTH });
  if (problem)
    throw new ToolFailure(
      `[eval-simulate] the handler of ${what} answered a value JSON cannot carry: ${describeJsonValueProblem(problem, "answer")}; nothing was changed`,
    );
  return value;
}

/** What the context of one call is made from. */
export interface CallScope {
  state: Record<string, unknown>;
  world: Record<string, unknown>;
  now: string;
  scenario: string;
  signal: AbortSignal;
  logs: unknown[];
  /** The fake's id, to name the tool in errors. */
  fake: string;
  /** The client, when the call's transport reaches one (each exchange kept: see client-channel.ts). */
  client?: HandlerClient;
}

/** What a handler's context says to and asks the client through. */
export interface HandlerClient {
  log(level: LogLevel, data: unknown): void;
  progress(progress: number, total?: number, message?: string): Promise<void>;
  elicit(params: Record<string, unknown>): Promise<ElicitAnswer>;
  sample(params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** The context a TypeScript tool handler receives (SPEC §4.2). */
export function toolContext(tool: CompiledTool, scope: CallScope): ToolContext {
  return {
    state: scope.state,
    world: scope.world,
    now: scope.now,
    scenario: scope.scenario,
    signal: scope.signal,
    log: (value, level) => {
      scope.logs.push(value);
      scope.client?.log(level ?? "info", value);
    },
    progress: (progress, total, message) => (scope.client ? scope.client.progress(progress, total, message) : Promise.resolve()),
    elicit: (params) =>
      scope.client ? scope.client.elicit(params) : Promise.reject(new ToolFailure("[eval-simulate] ctx.elicit: this call has no client to ask")),
    sample: (params) =>
      scope.client ? scope.client.sample(params) : Promise.reject(new ToolFailure("[eval-simulate] ctx.sample: this call has no client to ask")),
    answer: (value) => answerResult(tool.manifest.answer, plainAnswer(value, `${scope.fake}/${tool.manifest.name}`)),
    text,
    structured,
    notImplemented,
    fail: (message) => {
      throw new ToolFailure(message);
    },
    labelId,
  };
}
