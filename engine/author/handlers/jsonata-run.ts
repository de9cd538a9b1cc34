import { type HandlerPath, JsonataRuntimeError, describePath, toRuntimeError } from "./jsonata-errors.js";
import type { CompiledExpression } from "./jsonata-expression.js";
import { DEFAULT_RUN_LIMITS, type RunLimits, RunGuard, RunStop, findStop } from "./jsonata-guard.js";
import { watched } from "./jsonata-watchdog.js";
import type { CompiledJsonataHandler } from "./jsonata-handler.js";
import { NotJsonError, isTruthy, toPlainJson } from "./jsonata-plain.js";

/** What one call hands a JSONata handler (§4.1). Nothing in it is changed by the run. */
export interface JsonataHandlerInput {
  /** An MCP tool's arguments, defaults filled: `$args`, and the expression's context (`$`). */
  args?: unknown;
  /** An API operation's request (`method`, `path`, `params`, `query`, `headers`, `body`): `$request`, and the context. */
  request?: unknown;
  /** This fake's state before the call, by entity: `$state`. */
  state: Record<string, unknown>;
  /** Every fake's state, read-only: `$world`. */
  world: Record<string, unknown>;
  /** The clock, ISO 8601: `$now` (a string, not jsonata's `$now()`); `$millis()` reads it too. */
  now: string;
  scenario: string;
  /** `$labelId(label)`: a stable UUID from a label. */
  labelId: (label: string) => string;
  /** `$log(value)`: evidence for the journal. */
  log: (value: unknown) => void;
}

/**
 * How a run ended: an answer (with the entities `set` wrote, to commit even when `isError`
 * holds), or a failed guard or `$notImplemented` (a tool error; nothing to commit).
 */
export type JsonataHandlerResult = { kind: "answer"; value: unknown; isError: boolean; set: Record<string, unknown> } | { kind: "fail"; message: string };

/**
 * Runs a compiled handler: `let` in order, each seeing those before it; `fail` guards in order,
 * the first that holds ends the call; `set`, every entity's new value from the state before the
 * call; `return` with `$next` (the state after `set`); `isError`. Nothing is mutated: `set` comes
 * back as new values for the caller to commit. Results are plain JSON; an answer of nothing is
 * `null`; an entity that was an array stays one (jsonata gives a one-item result as the item
 * and an empty one as nothing). Throws a JsonataRuntimeError on an error or a limit (the whole
 * run shares `limits.timeoutMs`).
 *
 * @example
 * const result = await runJsonataHandler(handler, { args, state, world, now, scenario, labelId, log });
 * if (result.kind === "answer") commit(result.set);
 */
export function runJsonataHandler(handler: CompiledJsonataHandler, input: JsonataHandlerInput, limits: Partial<RunLimits> = {}): Promise<JsonataHandlerResult> {
  // The whole run, every part of a block, under the watchdog (the last resort; see jsonata-watchdog.ts).
  return watched(() => run(handler, input, limits)).catch((error: unknown) => {
    const stop = findStop(error);
    if (stop?.reason !== "stalled") throw error;
    throw toRuntimeError(error, { source: "", path: [], limits: { ...DEFAULT_RUN_LIMITS, ...limits }, maxSequence: 0, maxStringLength: 0 });
  });
}

async function run(handler: CompiledJsonataHandler, input: JsonataHandlerInput, limits: Partial<RunLimits>): Promise<JsonataHandlerResult> {
  const guard = new RunGuard(limits);
  const context = input.request !== undefined ? input.request : input.args;
  const bindings = builtInBindings(input);
  let current: { path: HandlerPath; expression?: CompiledExpression } = { path: [] };
  const evaluate = (expression: CompiledExpression, path: HandlerPath): Promise<unknown> => {
    current = { path, expression };
    guard.check();
    return expression.evaluate(context, bindings, guard);
  };
  const here = (path: HandlerPath): HandlerPath => (handler.form === "expression" ? [] : path);

  try {
    guard.check();
    // The manifest's shared functions first: each closes over these bindings, so it reads `$state` and `$args` too.
    for (const { name, expression } of handler.functions ?? []) define(bindings, name, await evaluate(expression, ["functions", name]));
    for (const { name, expression } of handler.let) {
      // Kept as jsonata made it: a binding may hold a function for the parts after it.
      define(bindings, name, await evaluate(expression, ["let", name]));
    }
    for (const [i, guardPart] of handler.fail.entries()) {
      if (!isTruthy(await evaluate(guardPart.if, ["fail", i, "if"]))) continue;
      const message = await evaluate(guardPart.message, ["fail", i, "message"]);
      return { kind: "fail", message: failMessage(message, ["fail", i, "message"]) };
    }
    const set: Record<string, unknown> = {};
    for (const { entity, expression } of handler.set) {
      const value = toPlainJson(await evaluate(expression, ["set", entity]));
      define(set, entity, asEntity(value, Object.hasOwn(input.state, entity) ? input.state[entity] : undefined));
    }
    bindings.next = { ...input.state, ...set };
    const value = handler.return ? toPlainJson(await evaluate(handler.return, here(["return"]))) : undefined;
    const isError = handler.isError ? isTruthy(await evaluate(handler.isError, ["isError"])) : false;
    return { kind: "answer", value: value === undefined ? null : value, isError, set };
  } catch (error) {
    const stop = findStop(error);
    if (stop?.reason === "not-implemented") return { kind: "fail", message: `This fake does not implement ${stop.detail}` };
    if (error instanceof JsonataRuntimeError) throw error;
    const expression = current.expression;
    throw toRuntimeError(error, {
      source: expression?.source ?? "",
      path: current.path,
      limits: guard.limits,
      maxSequence: expression?.limits.maxSequence ?? 0,
      maxStringLength: expression?.limits.maxStringLength ?? 0,
    });
  }
}

/** Sets a key as data: a name such as `__proto__` (a valid identifier) must not reach the prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `$args`/`$request`, `$state`, `$world`, `$now`, `$scenario`, and the functions. */
function builtInBindings(input: JsonataHandlerInput): Record<string, unknown> {
  const clock = Date.parse(input.now);
  const bindings: Record<string, unknown> = {
    state: input.state,
    world: input.world,
    now: input.now,
    scenario: input.scenario,
    // jsonata's `$millis()` reads the wall clock; a fake's answers follow its own clock.
    millis: () => clock,
    labelId: (label: unknown) => {
      if (typeof label !== "string") throw new Error("`$labelId(label)` takes a string");
      return input.labelId(label);
    },
    notImplemented: (what: unknown) => {
      throw new RunStop("not-implemented", typeof what === "string" ? what : what === undefined ? "this call" : JSON.stringify(lenientJson(what)));
    },
    log: (value: unknown) => {
      input.log(lenientJson(value));
      return value;
    },
  };
  if (input.args !== undefined) bindings.args = input.args;
  if (input.request !== undefined) bindings.request = input.request;
  return bindings;
}

/** For evidence only: what cannot be JSON is logged as text rather than failing the call. */
function lenientJson(value: unknown): unknown {
  try {
    return toPlainJson(value);
  } catch (error) {
    if (error instanceof NotJsonError) return String(value);
    throw error;
  }
}

function failMessage(value: unknown, path: HandlerPath): string {
  if (typeof value === "string") return value;
  if (value === undefined) {
    throw new JsonataRuntimeError({
      code: "E_JSONATA_RUNTIME",
      path,
      message: `[eval-simulate] ${describePath(path)} gave nothing; write the text as a JSONata string, quoted: '"A note needs a title"'`,
    });
  }
  return JSON.stringify(toPlainJson(value));
}

/**
 * jsonata gives a one-item sequence as the item and an empty one as nothing, so filtering an
 * array down to one or zero items would change the entity's type: an entity that was an array
 * stays one. Nothing becomes null for any other entity.
 */
function asEntity(value: unknown, before: unknown): unknown {
  if (Array.isArray(before) && !Array.isArray(value) && value !== null) return value === undefined ? [] : [value];
  return value === undefined ? null : value;
}
