import { describeJsonValueProblem, fillDefaults, jsonValueProblem, MAX_MESSAGE_DEPTH, resultShapeProblem, text } from "../../author/contract/index.js";
import { answerWithText } from "./answer-text.js";
import type { ToolResult } from "../../author/handlers/index.js";
import { arraysAsDeclared, runJsonataHandler } from "../../author/handlers/index.js";
import type { FaultSet } from "../stubs/index.js";
import { type StubSet, stubDelay } from "../stubs/index.js";
import { labelId } from "../../author/world/index.js";
import type { CompiledServer, CompiledTool } from "./compiled-fake.js";
import { describeHandlerError, stateProblem, worldSizeProblem } from "./change-problems.js";
import { withTimeout } from "./deadline.js";
import type { Commit, StateStore } from "./state-store.js";
import { isToolFailure } from "../../author/handlers/index.js";
import { type HandlerClient, plainAnswer, toolContext } from "./tool-context.js";
import { type ClientChannel, type Exchange, recordingChannel } from "./client-channel.js";
import { invalidArgumentsText } from "./error-texts.js";

/** A call to a tool the fake does not serve: the JSON-RPC error -32602 `Tool <name> not found`. */
export class ToolNotFoundError extends Error {
  readonly code = -32602;
  constructor(readonly tool: string) {
    super(`Tool ${tool} not found`);
    this.name = "ToolNotFoundError";
  }
}

/** What the runtime needs beside the fake: the state, the clock, the scenario, its stubs. */
export interface RuntimeScope {
  store: StateStore;
  now: string;
  scenario: string;
  stubs?: StubSet;
  faults?: FaultSet;
}

/** How one call went, for the journal and the record. */
export interface CallOutcome {
  server: string;
  tool: string;
  /** As sent, before defaults. */
  args: Record<string, unknown> | undefined;
  result: ToolResult;
  /** True when the call's state change was committed. */
  committed: boolean;
  logs: unknown[];
  startedAt: string;
  durationMs: number;
  /** The stub that answered, when one did. */
  stub?: string;
  /** What the call committed, when it did: the record's `changes` are made from it. */
  commit?: Commit;
  /** What the handler sent the client and asked it while the call ran (log, progress, elicitation, sampling). */
  exchanges?: Exchange[];
  /** True when the arguments were refused before any handler ran: bad-call counts read it, not the (customisable) text. */
  refused?: true;
}

const isToolResult = (value: unknown): value is ToolResult => !!value && typeof value === "object" && Array.isArray((value as ToolResult).content);

const toolError = (message: string): ToolResult => text(message, true);

/**
 * One tools/call through every step of SPEC §4.4: arguments validated against the captured
 * schema (the SDK's wording), defaults filled, the handler run under the fake's time limit on
 * a draft of the state, the answer checked against its schema, and the state committed. Any
 * failure is a tool error that changes nothing. Calls to one fake run one at a time. `witness`
 * (the host's evidence) is given every outcome once, and a committing call's before its commit,
 * so a run killed at any moment never holds a committed write it has no evidence of.
 *
 * @example const outcome = await callTool(scope, fake, "create-note", { title: "Kickoff" }, signal);
 */
export async function callTool(
  scope: RuntimeScope,
  fake: CompiledServer,
  name: string,
  args: Record<string, unknown> | undefined,
  signal: AbortSignal,
  witness?: (outcome: CallOutcome) => void,
  client?: ClientChannel,
): Promise<CallOutcome> {
  const tool = fake.tools.get(name);
  if (!tool) throw new ToolNotFoundError(name);
  const started = Date.now();
  const logs: unknown[] = [];
  const exchanges: Exchange[] = [];
  let stub: string | undefined;
  let commit: Commit | undefined;
  const finish = (result: ToolResult, committed: boolean, refused?: true): CallOutcome => {
    const outcome: CallOutcome = {
      server: fake.id,
      tool: name,
      args,
      result,
      committed,
      logs,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      ...(stub === undefined ? {} : { stub }),
      ...(commit === undefined ? {} : { commit }),
      ...(exchanges.length > 0 && { exchanges }),
      ...(refused && { refused }),
    };
    witness?.(outcome);
    return outcome;
  };
  // JSON.parse reads 1e309 as Infinity, which no schema keyword refuses and JSON cannot write back;
  // and nothing a handler does with a value a thousand levels deep would survive the stack.
  const unreadable = args === undefined ? undefined : jsonValueProblem(args, { maxDepth: MAX_MESSAGE_DEPTH });
  if (unreadable) {
    return finish(toolError(invalidArgumentsText(fake.manifest, name, describeJsonValueProblem(unreadable, "data"))), false, true);
  }
  if (!tool.args.validate(args ?? {})) {
    return finish(toolError(invalidArgumentsText(fake.manifest, name, tool.args.errorsText(), tool.args.issues())), false, true);
  }
  // Injected latency delays the call before it queues, so it does not hold up the fake's other calls.
  const latency = scope.faults?.effect(fake.id, name).latencyMs ?? 0;
  if (latency > 0) await stubDelay(latency, signal);
  // Stubs are chosen in arrival order, after validation (a stub never skips it), on the
  // arguments as sent. A stub's answer changes no state, so it does not queue behind writes.
  const choice = scope.stubs?.choose(fake.id, name, args);
  if (choice) {
    stub = choice.stub.id;
    const { outcome } = choice;
    if (outcome.delayMs && outcome.progress && client) {
      // A slow call that says how far along it is: N steps of progress over the delay.
      const channel = recordingChannel(client, exchanges, signal);
      for (let step = 1; step <= outcome.progress; step++) {
        await stubDelay(outcome.delayMs / outcome.progress, signal);
        await channel.progress(step, outcome.progress);
      }
    } else if (outcome.delayMs) await stubDelay(outcome.delayMs, signal);
    if (outcome.error !== undefined) return finish(toolError(outcome.error), false);
    if (outcome.content !== undefined) return finish({ content: outcome.content } as ToolResult, false);
    if (outcome.answer !== undefined) {
      const result = await answerWithText(tool.manifest.answer, outcome.answer, {
        timeoutMs: fake.timeoutMs,
        now: scope.now,
        scenario: scope.scenario,
        signal,
      }).catch((error: Error) => toolError(error.message));
      const broken = answerProblem(tool, result);
      return finish(broken ? toolError(`[eval-simulate] stub "${stub}" answers outside the contract: ${broken}`) : result, false);
    }
  }
  const filled = fillDefaults(tool.defaults, args ?? {});
  return scope.store.serialize(
    fake.id,
    async () => {
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        // A client that went away while the call waited its turn gets nothing run for it.
        if (signal.aborted) return finish(toolError("[eval-simulate] the client went away before the call ran; nothing was changed"), false);
        const channel = client && recordingChannel(client, exchanges, controller.signal);
        const run = runHandler(scope, fake, tool, filled, controller.signal, logs, channel);
        const { result, changes } = await withTimeout(run, fake.timeoutMs, controller, `${fake.id}/${name}`);
        // The result is checked before anything commits or is journaled: what the client is sent
        // is what the journal says, and a malformed one changes nothing.
        const malformed = resultShapeProblem(result);
        const broken =
          (malformed && `[eval-simulate] the handler of ${fake.id}/${name} answered a malformed result: ${malformed}; nothing was changed`) ||
          (!result.isError && answerProblem(tool, result)) ||
          (changes && stateProblem(fake.entities, `${fake.id}/${name}`, changes));
        if (broken) return finish(toolError(broken), false);
        const over = changes && scope.store.overLimit(fake.id, changes);
        if (over) return finish(toolError(worldSizeProblem(`${fake.id}/${name}`, over)), false);
        // The evidence (with the commit it is about to make) is kept first, then the commit.
        if (changes) commit = scope.store.stage(fake.id, changes);
        const outcome = finish(result, changes !== undefined);
        if (commit) scope.store.commit(fake.id, changes!, commit);
        return outcome;
      } catch (error) {
        return finish(toolError(isToolFailure(error) ? error.message : describeHandlerError(error, `${fake.id}/${name}`, tool.manifest.writes, "tool")), false);
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    },
    tool.manifest.writes.length > 0,
  );
}

/** Runs the tool's handler on a draft; returns its result and how to commit what it changed. */
async function runHandler(
  scope: RuntimeScope,
  fake: CompiledServer,
  tool: CompiledTool,
  args: Record<string, unknown>,
  signal: AbortSignal,
  logs: unknown[],
  client?: HandlerClient,
): Promise<{ result: ToolResult; changes?: Record<string, unknown> }> {
  const { handler, answer, writes } = tool.manifest;
  // JSONata cannot assign, so it reads the committed state directly; code gets a read-only view.
  const world = handler.kind === "jsonata" ? scope.store.states : scope.store.view;
  const textLimits = { timeoutMs: fake.timeoutMs, now: scope.now, scenario: scope.scenario, signal };
  if (handler.kind === "jsonata") {
    const ran = await runJsonataHandler(
      handler.jsonata,
      { args, state: scope.store.snapshot(fake.id), world, now: scope.now, scenario: scope.scenario, labelId, log: (v) => void logs.push(v) },
      { timeoutMs: fake.timeoutMs, signal },
    );
    if (ran.kind === "fail") return { result: toolError(ran.message) };
    // A rejection worded as a string reads as plain text, not dressed in the success format.
    // JSONata gives a one-item list as the item: the answer schema says where a list belongs.
    const value = ran.isError ? ran.value : arraysAsDeclared(ran.value, answer.schema);
    const result = ran.isError && typeof value === "string" ? toolError(value) : await answerWithText(answer, value, textLimits);
    if (ran.isError) result.isError = true;
    return { result, changes: Object.keys(ran.set).length > 0 ? ran.set : undefined };
  }
  const draft = scope.store.draft(fake.id, writes);
  const context = toolContext(tool, {
    state: draft.state,
    world,
    now: scope.now,
    scenario: scope.scenario,
    signal,
    logs,
    fake: fake.id,
    ...(client && { client }),
  });
  const value = await handler.fn(args, context);
  const result = draft.detach(
    isToolResult(value) ? value : await answerWithText(answer, plainAnswer(draft.detach(value), `${fake.id}/${tool.manifest.name}`), textLimits),
  );
  draft.detach(logs);
  const changes = draft.changes();
  return { result, changes };
}

/** Why a successful answer breaks the tool's contract, in the SDK's words for an output schema. */
function answerProblem(tool: CompiledTool, result: ToolResult): string | undefined {
  const { answer, name } = tool.manifest;
  if (answer.structured) {
    if (result.structuredContent === undefined) {
      return `Output validation error: Tool ${name} has an output schema but no structured content was provided`;
    }
    if (tool.answerSchema && !tool.answerSchema.validate(result.structuredContent)) {
      return `Output validation error: Invalid structured content for tool ${name}: ${tool.answerSchema.errorsText()}`;
    }
  }
  return undefined;
}
