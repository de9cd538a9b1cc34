/**
 * The texts of the errors the engine answers for a fake, from the templates its manifest
 * declares (`servers.<id>.errors`), so a fake words them as its real server does; today's texts
 * when it declares none.
 */
import type { SchemaIssue } from "../../author/contract/index.js";
import type { ServerManifest } from "../../author/model/index.js";

/** The default text of an input-validation error: the MCP SDK's own wording. */
export const DEFAULT_INVALID_ARGUMENTS = "Input validation error: Invalid arguments for tool {{tool}}: {{message}}";

/** A template with its `{{name}}` placeholders filled (an unknown one is kept as written; validate refuses it). */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}

/** `/entities/0/name` → `entities.0.name` (JSON Pointer unescaped); the arguments themselves are `(root)`. */
const dotted = (pointer: string) =>
  pointer === ""
    ? "(root)"
    : pointer
        .slice(1)
        .split("/")
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
        .join(".");

/**
 * The tool error text of a call whose arguments fail the input schema.
 *
 * @example invalidArgumentsText(manifest, "create_entities", "data/entities must be array", issues) // "Input validation error: …"
 */
export function invalidArgumentsText(manifest: ServerManifest, tool: string, message: string, issues: readonly SchemaIssue[] = []): string {
  const first = issues[0];
  return fillTemplate(manifest.errorTexts?.invalidArguments ?? DEFAULT_INVALID_ARGUMENTS, {
    tool,
    message,
    path: first ? dotted(first.path) : "(root)",
    issue: first?.message ?? message,
  });
}

/** The text of the tool error result a call to an unserved tool gets, when the manifest declares one. */
export function unknownToolText(manifest: ServerManifest, tool: string): string | undefined {
  const template = manifest.errorTexts?.unknownTool;
  return template === undefined ? undefined : fillTemplate(template, { tool });
}
