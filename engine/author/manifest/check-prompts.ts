/**
 * The prompts a fake serves and the completions of prompt and resource-template arguments: each
 * prompt names a captured one and has one way to answer (`messages`, `jsonata` or the handlers
 * module's entry of its name); each completion names an argument the capture declares.
 */
import type { ToolHandler } from "../handlers/index.js";
import { checkEntityNames, checkHandler } from "./check-handler.js";
import { suggestion } from "../source/index.js";
import type { HandlersModule } from "./handlers-module.js";
import { checkJsonata, type LoadContext } from "./load-context.js";
import type { CapturedServer } from "./read-captured.js";
import type { PathSegment } from "../source/index.js";
import type { CompletionManifest, PromptManifest } from "../model/index.js";

type PromptDocument = { description?: string; reads?: string[]; messages?: Array<Record<string, unknown>>; jsonata?: unknown; complete?: CompleteDocument };
type CompleteDocument = Record<string, string[] | { jsonata: string }>;

/**
 * Checks the prompts a fake serves against its capture's `prompts`; returned in captured order.
 *
 * @example checkPrompts(server.prompts, captured, [...path, "prompts"], entityNames, module, context);
 */
export function checkPrompts(
  prompts: Record<string, PromptDocument> | undefined,
  captured: CapturedServer,
  path: PathSegment[],
  entityNames: string[],
  module: HandlersModule | undefined,
  context: LoadContext,
): PromptManifest[] {
  if (!prompts) return [];
  const listed = (captured.prompts ?? []).filter((p) => typeof p.name === "string");
  const names = listed.map((p) => p.name as string);
  for (const name of Object.keys(prompts)) {
    if (!names.includes(name)) {
      context.report.error("E_UNKNOWN_PROMPT", [...path, name], `"${name}" is not a captured prompt.${suggestion(name, names)}`, {
        key: true,
        hint: names.length ? `Captured: ${names.join(", ")}.` : "Capture the server again (eval-simulate capture): its capture lists no prompts.",
      });
    }
  }
  const served: PromptManifest[] = [];
  for (const prompt of listed) {
    const name = prompt.name as string;
    const spec = prompts[name];
    if (!spec) continue;
    const at = [...path, name];
    const reads = checkEntityNames(spec.reads, entityNames, [...at, "reads"], context);
    const argumentNames = Array.isArray(prompt.arguments)
      ? prompt.arguments.map((a) => (a as { name?: unknown }).name).filter((n) => typeof n === "string")
      : [];
    const complete = checkCompletions(spec.complete, argumentNames as string[], [...at, "complete"], context);
    if (spec.messages !== undefined) {
      if (spec.jsonata !== undefined || module?.handlers[name]) {
        context.report.error("E_HANDLER_DUPLICATE", [...at, "messages"], `the prompt "${name}" has two ways to answer: \`messages\` and a handler`, {
          key: true,
        });
        continue;
      }
      served.push({
        name,
        captured: prompt,
        reads,
        handler: { kind: "template", messages: spec.messages },
        ...(complete && { complete }),
        source: context.report.location(at),
      });
      continue;
    }
    const handler = checkHandler<ToolHandler>(name, spec, at, module, context);
    if (handler?.kind === "jsonata" && handler.jsonata.writes.length > 0) {
      context.report.error("E_SET_NOT_WRITTEN", [...at, "jsonata", "set"], `getting the prompt "${name}" cannot change state: a prompt has no \`set\``, {
        key: true,
      });
      continue;
    }
    if (handler) served.push({ name, captured: prompt, reads, handler, ...(complete && { complete }), source: context.report.location(at) });
  }
  return served;
}

/**
 * Checks `complete:` of a prompt or a resource template: each key an argument (or template
 * variable) the capture declares, each a list of strings or a JSONata expression.
 *
 * @example checkCompletions({ city: ["paris"] }, ["city"], at, context); // { city: { kind: "list", values: ["paris"] } }
 */
export function checkCompletions(
  complete: CompleteDocument | undefined,
  argumentNames: string[],
  path: PathSegment[],
  context: LoadContext,
): Record<string, CompletionManifest> | undefined {
  if (!complete) return undefined;
  const checked: Record<string, CompletionManifest> = {};
  for (const [name, spec] of Object.entries(complete)) {
    if (!argumentNames.includes(name)) {
      context.report.error("E_UNKNOWN_ARGUMENT", [...path, name], `"${name}" is not an argument here.${suggestion(name, argumentNames)}`, {
        key: true,
        hint: argumentNames.length ? `Arguments: ${argumentNames.join(", ")}.` : "Nothing here takes arguments.",
      });
      continue;
    }
    if (Array.isArray(spec)) {
      checked[name] = { kind: "list", values: spec };
      continue;
    }
    const jsonata = checkJsonata(spec.jsonata, [...path, name, "jsonata"], context);
    if (jsonata) checked[name] = { kind: "jsonata", jsonata };
  }
  return checked;
}

/** The `{variable}` names of a URI template (RFC 6570 operators stripped). */
export function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].flatMap((m) => m[1].replace(/^[+#./;?&]/, "").split(",")).map((v) => v.replace(/\*$|:\d+$/, ""));
}
