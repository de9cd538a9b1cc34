/**
 * `prompts/get` and `completion/complete` on a fake, from the committed state of its world:
 * a prompt's messages from its template (every `{{name}}` replaced by that argument) or its
 * handler; an argument's completions from a list (filtered by what the client typed) or a
 * JSONata expression over the world. Both read and never write.
 */
import { runJsonataHandler } from "../../author/handlers/index.js";
import type { CompletionManifest, PromptManifest } from "../../author/model/index.js";
import { labelId } from "../../author/world/index.js";
import type { RuntimeScope } from "./call-tool.js";
import type { CompiledServer } from "./compiled-fake.js";
import { withTimeout } from "./deadline.js";
import { toolContext } from "./tool-context.js";

/** A prompt the fake does not serve, or arguments it refuses: the JSON-RPC error -32602. */
export class PromptRequestError extends Error {
  readonly code = -32602;
  constructor(message: string) {
    super(message);
    this.name = "PromptRequestError";
  }
}

/** The spec caps a completion's values at 100 per answer. */
export const MAX_COMPLETIONS = 100;

/**
 * The messages of one prompt, from the world the scope holds.
 *
 * @example await getPrompt(scope, fake, "summarise", { topic: "Q3" }, signal); // { messages: [...] }
 */
export async function getPrompt(
  scope: RuntimeScope,
  fake: CompiledServer,
  name: string,
  args: Record<string, string> | undefined,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const prompt = fake.manifest.prompts?.find((p) => p.name === name);
  if (!prompt) throw new PromptRequestError(`Prompt ${name} not found`);
  const given = args ?? {};
  for (const argument of declaredArguments(prompt)) {
    if (argument.required === true && typeof given[argument.name] !== "string") {
      throw new PromptRequestError(`Invalid arguments for prompt ${name}: missing required argument "${argument.name}"`);
    }
  }
  const { handler } = prompt;
  if (handler.kind === "template") return { messages: fill(handler.messages, given) as unknown[] };
  const value = await readOnly(fake, `${fake.id}/prompts/${name}`, signal, async (controller) => {
    if (handler.kind === "jsonata") {
      const ran = await runJsonataHandler(
        handler.jsonata,
        { args: given, state: scope.store.snapshot(fake.id), world: scope.store.states, now: scope.now, scenario: scope.scenario, labelId, log: () => {} },
        { timeoutMs: fake.timeoutMs, signal: controller.signal },
      );
      if (ran.kind === "fail") throw new PromptRequestError(ran.message);
      return ran.value;
    }
    return handler.fn(given, readContext(scope, fake, controller.signal));
  });
  return promptResult(value, name);
}

/**
 * The values completing one argument of a prompt (`ref/prompt`) or resource template
 * (`ref/resource`), at most 100, with `total` and `hasMore` as the spec words them.
 *
 * @example await complete(scope, fake, { type: "ref/prompt", name: "summarise" }, { name: "topic", value: "Q" }, {}, signal);
 */
export async function complete(
  scope: RuntimeScope,
  fake: CompiledServer,
  ref: { type: string; name?: string; uri?: string },
  argument: { name: string; value: string },
  context: Record<string, string>,
  signal: AbortSignal,
): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
  const spec = completionOf(fake, ref)?.[argument.name];
  if (!spec) return { values: [] };
  let values: string[];
  if (spec.kind === "list") {
    const typed = argument.value.toLowerCase();
    values = spec.values.filter((value) => value.toLowerCase().startsWith(typed));
  } else {
    const found = await readOnly(fake, `${fake.id}/completion/${argument.name}`, signal, async (controller) => {
      const ran = await runJsonataHandler(
        spec.jsonata,
        {
          args: { value: argument.value, arguments: context },
          state: scope.store.snapshot(fake.id),
          world: scope.store.states,
          now: scope.now,
          scenario: scope.scenario,
          labelId,
          log: () => {},
        },
        { timeoutMs: fake.timeoutMs, signal: controller.signal },
      );
      return ran.kind === "fail" ? [] : ran.value;
    });
    const list = Array.isArray(found) ? found : found === undefined || found === null ? [] : [found];
    values = list.filter((value): value is string | number => typeof value === "string" || typeof value === "number").map(String);
  }
  if (values.length <= MAX_COMPLETIONS) return { values };
  return { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: true };
}

function completionOf(fake: CompiledServer, ref: { type: string; name?: string; uri?: string }): Record<string, CompletionManifest> | undefined {
  if (ref.type === "ref/prompt") return fake.manifest.prompts?.find((p) => p.name === ref.name)?.complete;
  if (ref.type === "ref/resource") return fake.manifest.resources?.find((r) => r.key === ref.uri)?.complete;
  return undefined;
}

function declaredArguments(prompt: PromptManifest): Array<{ name: string; required?: boolean }> {
  const list = prompt.captured.arguments;
  return Array.isArray(list) ? list.filter((a): a is { name: string; required?: boolean } => typeof a?.name === "string") : [];
}

/** Every `{{name}}` in the template's strings replaced by that argument (an argument not given: empty). */
function fill(value: unknown, args: Record<string, string>): unknown {
  if (typeof value === "string") return value.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (_, name: string) => args[name] ?? "");
  if (Array.isArray(value)) return value.map((item) => fill(item, args));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, args)]));
  return value;
}

/** A handler's value as a GetPromptResult: the messages, `{ description?, messages }`, or a string (one user message). */
function promptResult(value: unknown, name: string): Record<string, unknown> {
  if (typeof value === "string") return { messages: [{ role: "user", content: { type: "text", text: value } }] };
  if (Array.isArray(value)) return { messages: value };
  if (value && typeof value === "object" && Array.isArray((value as { messages?: unknown }).messages)) return value as Record<string, unknown>;
  throw new Error(`[eval-simulate] the handler of the prompt ${JSON.stringify(name)} answered neither messages nor { messages }`);
}

function readContext(scope: RuntimeScope, fake: CompiledServer, signal: AbortSignal) {
  return toolContext({ manifest: { answer: { format: "json" } } } as never, {
    state: scope.store.snapshot(fake.id),
    world: scope.store.view,
    now: scope.now,
    scenario: scope.scenario,
    signal,
    logs: [],
    fake: fake.id,
  });
}

/** Runs a read under the fake's time limit, aborted with the request. */
async function readOnly<T>(fake: CompiledServer, what: string, signal: AbortSignal, run: (controller: AbortController) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await withTimeout(run(controller), fake.timeoutMs, controller, what);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
