import type { ToolHandler } from "../handlers/index.js";
import { checkEntityNames, checkHandler } from "./check-handler.js";
import { suggestion } from "../source/index.js";
import type { HandlersModule } from "./handlers-module.js";
import type { LoadContext } from "./load-context.js";
import type { CapturedServer } from "./read-captured.js";
import type { PathSegment } from "../source/index.js";
import type { ResourceManifest } from "../model/index.js";
import { checkCompletions, templateVariables } from "./check-prompts.js";

type ResourceDocument = { description?: string; reads?: string[]; jsonata?: unknown; complete?: Record<string, string[] | { jsonata: string }> };

/**
 * Checks the resources a fake serves: each names a captured resource (`uri`) or resource
 * template (`uriTemplate`), reads declared entities and has one handler (`jsonata`, or the
 * handlers module's entry named by the same URI). Returned in captured order.
 */
export function checkResources(
  resources: Record<string, ResourceDocument> | undefined,
  captured: CapturedServer,
  path: PathSegment[],
  entityNames: string[],
  module: HandlersModule | undefined,
  context: LoadContext,
): ResourceManifest[] {
  if (!resources) return [];
  const listed = [
    ...(captured.resources ?? []).filter((r) => typeof r.uri === "string").map((r) => ({ key: r.uri as string, template: false, captured: r })),
    ...(captured.resourceTemplates ?? [])
      .filter((r) => typeof r.uriTemplate === "string")
      .map((r) => ({ key: r.uriTemplate as string, template: true, captured: r })),
  ];
  const keys = listed.map((entry) => entry.key);
  for (const key of Object.keys(resources)) {
    if (!keys.includes(key)) {
      context.report.error("E_UNKNOWN_RESOURCE", [...path, key], `"${key}" is not a captured resource or resource template.${suggestion(key, keys)}`, {
        key: true,
        hint: keys.length ? `Captured: ${keys.join(", ")}.` : "Capture the server again (eval-simulate capture): its capture lists no resources.",
      });
    }
  }
  const served: ResourceManifest[] = [];
  for (const entry of listed) {
    const spec = resources[entry.key];
    if (!spec) continue;
    const at = [...path, entry.key];
    const reads = checkEntityNames(spec.reads, entityNames, [...at, "reads"], context);
    const handler = checkHandler<ToolHandler>(entry.key, spec, at, module, context);
    if (handler?.kind === "jsonata" && handler.jsonata.writes.length > 0) {
      context.report.error(
        "E_SET_NOT_WRITTEN",
        [...at, "jsonata", "set"],
        `reading the resource "${entry.key}" cannot change state: a resource has no \`set\``,
        { key: true },
      );
      continue;
    }
    const complete = checkCompletions(spec.complete, entry.template ? templateVariables(entry.key) : [], [...at, "complete"], context);
    if (handler)
      served.push({
        captured: entry.captured,
        key: entry.key,
        template: entry.template,
        reads,
        handler,
        ...(complete && { complete }),
        source: context.report.location(at),
      });
  }
  return served;
}
