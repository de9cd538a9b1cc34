/**
 * Description experiments: a variant overrides what the fakes serve (a tool's description, its
 * input schema) for one run only; the evals file and the capture stay untouched, so the dataset
 * stays the contract and two runs differ only in the metadata under test.
 *
 * ```yaml
 * id: clearer-reads
 * description: Say which read tool is for one text file.
 * tools:
 *   read_text_file: { description: "Read ONE text file ..." }
 * ```
 */
import { resolve } from "node:path";
import { type Diagnostic, ManifestError, suggestion } from "../../author/source/index.js";
import { Report } from "../../author/source/index.js";
import { SourceDocument } from "../../author/source/index.js";
import { readRegularFile } from "../../core/files/index.js";
import type { SelectionCatalog, SelectionTool } from "./catalog.js";

/** One tool's overrides. */
export interface ToolOverride {
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/** A variant: an id, why it exists, and overrides by tool (`server/tool` or the bare name). */
export interface Variant {
  id: string;
  description?: string;
  tools: Record<string, ToolOverride>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads and checks a variant file (YAML or JSON) against the catalog it will override: every
 * problem at its file:line:column (unknown tools with a did-you-mean, a schema that is not an
 * object schema), thrown together as a ManifestError.
 *
 * @example const variant = loadVariant("variants/clearer-reads.yaml", catalog);
 */
export function loadVariant(path: string, catalog: SelectionCatalog): Variant {
  const file = resolve(path);
  const read = readRegularFile(file);
  if (!read.ok) throw new Error(`[eval-simulate] cannot read the variant ${path}: it ${read.reason}`);
  const text = read.text;
  const source = new SourceDocument(file, text);
  const report = new Report(source);
  for (const problem of source.problems) report.error(problem.code, [], problem.message, { position: problem.position });
  if (source.problems.length > 0) throw new ManifestError(report.diagnostics);
  const value = source.value;
  if (!isObject(value))
    throw new ManifestError([
      {
        code: "E_SCHEMA",
        severity: "error",
        message: "a variant is a mapping: { id, description, tools }",
        file,
        line: 1,
        column: 1,
        path: "(root)",
      } satisfies Diagnostic,
    ]);
  for (const key of Object.keys(value))
    if (!["id", "description", "tools"].includes(key))
      report.error("E_UNKNOWN_KEY", [key], `a variant has no key "${key}".${suggestion(key, ["id", "description", "tools"])}`, { key: true });
  if (typeof value.id !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value.id))
    report.error(
      value.id === undefined ? "E_MISSING_KEY" : "E_SCHEMA",
      value.id === undefined ? [] : ["id"],
      "a variant needs an `id` of letters, digits, `.`, `_` and `-`",
    );
  if (value.description !== undefined && typeof value.description !== "string") report.error("E_SCHEMA", ["description"], "`description` is text");
  const names = catalog.tools.flatMap((t) => [t.id, t.name]);
  if (!isObject(value.tools) || Object.keys(value.tools).length === 0)
    report.error(
      value.tools === undefined ? "E_MISSING_KEY" : "E_SCHEMA",
      value.tools === undefined ? [] : ["tools"],
      "a variant needs `tools`: overrides by tool name, at least one",
    );
  else {
    for (const [name, override] of Object.entries(value.tools)) {
      const found = catalog.resolve(name);
      if (found.length !== 1)
        report.error(
          "E_UNKNOWN_TOOL",
          ["tools", name],
          found.length === 0
            ? `no served MCP tool is named "${name}".${suggestion(name, names)}`
            : `"${name}" may mean any of ${found.map((t) => t.id).join(", ")}: name it as <server>/<tool>`,
          { key: true },
        );
      if (!isObject(override)) {
        report.error("E_SCHEMA", ["tools", name], "an override is { description?, inputSchema? }");
        continue;
      }
      for (const key of Object.keys(override))
        if (key !== "description" && key !== "inputSchema")
          report.error("E_UNKNOWN_KEY", ["tools", name, key], `an override has no key "${key}".${suggestion(key, ["description", "inputSchema"])}`, {
            key: true,
          });
      if (override.description !== undefined && typeof override.description !== "string")
        report.error("E_SCHEMA", ["tools", name, "description"], "`description` is text");
      // A tool list with a non-object input schema breaks the whole list for MCP clients.
      if (override.inputSchema !== undefined && (!isObject(override.inputSchema) || (override.inputSchema.type ?? "object") !== "object")) {
        report.error("E_SCHEMA", ["tools", name, "inputSchema"], "`inputSchema` is a JSON Schema of an object ({ type: object, properties: ... })");
      }
    }
  }
  if (report.failed) throw new ManifestError(report.diagnostics);
  return value as unknown as Variant;
}

/** The override a variant makes for a served tool, if any. */
function overrideFor(variant: Variant, server: string, tool: string, unique: boolean): ToolOverride | undefined {
  return (
    variant.tools[`${server}/${tool}`] ??
    variant.tools[`${server}__${tool}`] ??
    variant.tools[`mcp__${server}__${tool}`] ??
    (unique ? variant.tools[tool] : undefined)
  );
}

/**
 * The catalog as the variant serves it: overridden descriptions and input schemas, everything
 * else (names, areas, order) as captured.
 *
 * @example const offered = variantCatalog(catalog, loadVariant("clearer-reads.yaml", catalog));
 */
export function variantCatalog(catalog: SelectionCatalog, variant: Variant): SelectionCatalog {
  const tools: SelectionTool[] = catalog.tools.map((t) => {
    const override = overrideFor(variant, t.server, t.tool, t.name === t.tool);
    return override
      ? {
          ...t,
          ...(override.description !== undefined ? { description: override.description } : {}),
          ...(override.inputSchema ? { inputSchema: override.inputSchema } : {}),
        }
      : t;
  });
  const byName = new Map(tools.map((t) => [t.id, t]));
  return {
    ...catalog,
    tools,
    offered: (name) => byName.get(catalog.offered(name)?.id ?? ""),
    resolve: (name) => catalog.resolve(name).map((t) => byName.get(t.id)!),
  };
}

/**
 * A variant applied to the tools an agent is offered in a full eval case (the runner's
 * `connectTools` list, or any `{ server, tool: { name, description, inputSchema } }`): the model
 * sees the overrides, the fake still answers and validates as captured.
 *
 * @example const offered = applyVariant((await connectTools(servers)).tools, variant);
 */
export function applyVariant<T extends { server: string; tool: { name: string; description?: string; inputSchema: Record<string, unknown> } }>(
  tools: readonly T[],
  variant: Variant,
): T[] {
  const count = new Map<string, number>();
  for (const t of tools) count.set(t.tool.name, (count.get(t.tool.name) ?? 0) + 1);
  return tools.map((t) => {
    const override = overrideFor(variant, t.server, t.tool.name, count.get(t.tool.name) === 1);
    if (!override) return t;
    return {
      ...t,
      tool: {
        ...t.tool,
        ...(override.description !== undefined ? { description: override.description } : {}),
        ...(override.inputSchema ? { inputSchema: override.inputSchema } : {}),
      },
    };
  });
}
