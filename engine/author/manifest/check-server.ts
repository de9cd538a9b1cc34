import type { AnswerSpec } from "../contract/index.js";
import { createSchemaCompiler, nestedDefaults } from "../contract/index.js";
import { checkScenarioValues } from "../world/index.js";
import type { ToolHandler } from "../handlers/index.js";
import { suggestion } from "../source/index.js";
import { type HandlersModule, loadHandlersModule } from "./handlers-module.js";
import { checkJsonata, checkSchema, compileNotingPatterns, type LoadContext } from "./load-context.js";
import { checkArgumentReads } from "./check-arguments.js";
import { checkStateReads } from "./check-state-reads.js";
import { checkEntityNames, checkHandler } from "./check-handler.js";
import { checkResources } from "./check-resources.js";
import { checkPrompts } from "./check-prompts.js";

export { checkEntityNames, checkHandler } from "./check-handler.js";
import { readCaptured } from "./read-captured.js";
import type { PathSegment } from "../source/index.js";
import type { CapturedTool, EntityManifest, ServerManifest, ToolManifest } from "../model/index.js";
import type { ManifestDocument } from "../../../schema/manifest.js";

type ServerDocument = NonNullable<ManifestDocument["servers"]>[string];
type ToolDocument = ServerDocument["tools"][string];
type EntitiesDocument = NonNullable<ServerDocument["entities"]>;

export const DEFAULT_TIMEOUT_MS = 30_000;

/** Checks one fake's entities and returns them with their schemas made standalone. */
export function checkEntities(entities: EntitiesDocument | undefined, path: PathSegment[], context: LoadContext): EntityManifest[] {
  // A default's special values (`$date`, `$id`, `$expr`) are checked here, once, at the default.
  for (const [name, entity] of Object.entries(entities ?? {})) {
    for (const problem of checkScenarioValues(entity.default, [...path, name, "default"])) {
      const position = problem.offset === undefined ? undefined : context.report.source.positionInString([...problem.path, "$expr"], problem.offset);
      context.report.error(problem.code === "E_JSONATA_SYNTAX" ? "E_JSONATA_SYNTAX" : "E_WORLD_VALUE", problem.path, problem.message, { position });
    }
  }
  return Object.entries(entities ?? {}).map(([name, entity]) => ({
    name,
    description: entity.description,
    schema: checkSchema(entity.schema as Record<string, unknown>, [...path, name, "schema"], context) ?? true,
    default: entity.default,
    source: context.report.location([...path, name]),
  }));
}

/**
 * Checks one MCP fake against its capture and handlers, and returns it normalised: tools in
 * captured order, each with its answer and its one handler.
 */
export async function checkServer(id: string, server: ServerDocument, context: LoadContext): Promise<ServerManifest | undefined> {
  const { report } = context;
  const path = ["servers", id];
  const captured = readCaptured(server.captured, [...path, "captured"], context.files, report);
  const module = server.handlers ? await loadHandlersModule(server.handlers, [...path, "handlers"], context.files, report) : undefined;
  const entities = checkEntities(server.entities, [...path, "entities"], context);
  // Read by the checks (eval-simulate check), which run only on a valid manifest: the file rules
  // are enforced here, before anything opens it.
  const observed = server.observed === undefined ? undefined : context.files.locate(server.observed);
  if (observed && !observed.ok) report.error("E_IO", [...path, "observed"], `the observations ${server.observed} ${observed.reason}`);
  if (!captured) return undefined;

  const byName = new Map(captured.tools.map((tool) => [tool.name, tool]));
  const capturedNames = [...byName.keys()];
  for (const name of Object.keys(server.tools)) {
    if (!byName.has(name)) {
      report.error("E_UNKNOWN_TOOL", [...path, "tools", name], `"${name}" is not a captured tool of ${id}.${suggestion(name, capturedNames)}`, { key: true });
    }
  }
  const tools: ToolManifest[] = [];
  for (const tool of captured.tools) {
    const spec = server.tools[tool.name];
    if (!spec) continue;
    const checked = checkTool(
      tool,
      spec,
      [...path, "tools", tool.name],
      entities.map((e) => e.name),
      module,
      context,
    );
    if (checked) tools.push(checked);
  }
  const resources = checkResources(
    server.resources,
    captured,
    [...path, "resources"],
    entities.map((e) => e.name),
    module,
    context,
  );
  const prompts = checkPrompts(
    server.prompts,
    captured,
    [...path, "prompts"],
    entities.map((e) => e.name),
    module,
    context,
  );
  const areas = checkAreas(
    server.areas,
    Object.keys(server.tools).filter((name) => byName.has(name)),
    [...path, "areas"],
    context,
  );
  if (module) {
    for (const name of Object.keys(module.handlers)) {
      if (!server.tools[name] && !server.resources?.[name] && !server.prompts?.[name]) {
        report.warn(
          "W_UNUSED_HANDLER",
          [...path, "handlers"],
          `the handlers module exports "${name}", which ${id} does not serve.${suggestion(name, Object.keys(server.tools))}`,
        );
      }
    }
  }
  return {
    id,
    description: server.description,
    ...(server.required === true && { required: true }),
    captured: captured.tools,
    tools,
    entities,
    ...(areas ? { areas } : {}),
    handlersFile: module?.file,
    observedFile: server.observed,
    timeoutMs: server.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(captured.serverInfo && { serverInfo: captured.serverInfo }),
    ...(captured.instructions !== undefined && { instructions: captured.instructions }),
    ...(server.unknownTool && { unknownTool: server.unknownTool }),
    ...(server.errors && { errorTexts: checkErrorTexts(server.errors, path, report) }),
    ...(resources.length > 0 && { resources }),
    ...(prompts.length > 0 && { prompts }),
    ...(server.logging === true && { logging: true }),
    ...(server.sessions === true && { sessions: true }),
    ...(server.pageSize !== undefined && { pageSize: server.pageSize }),
    source: report.location(path),
  };
}

const PLACEHOLDERS: Record<"invalidArguments" | "unknownTool", string[]> = { invalidArguments: ["tool", "message", "path", "issue"], unknownTool: ["tool"] };

/** The error templates, each placeholder one its error fills in. */
function checkErrorTexts(
  errors: NonNullable<ServerDocument["errors"]>,
  path: PathSegment[],
  report: LoadContext["report"],
): { invalidArguments?: string; unknownTool?: string } {
  for (const kind of ["invalidArguments", "unknownTool"] as const) {
    const template = errors[kind];
    if (template === undefined) continue;
    for (const [, name] of template.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) {
      if (!PLACEHOLDERS[kind].includes(name))
        report.error("E_SCHEMA", [...path, "errors", kind], `{{${name}}} is not filled in for ${kind}.${suggestion(name, PLACEHOLDERS[kind])}`, {
          hint: `Use ${PLACEHOLDERS[kind].map((p) => `{{${p}}}`).join(", ")}.`,
        });
    }
  }
  return errors;
}

/** A server's selection areas: each tool served, and in one area at most. */
function checkAreas(areas: ServerDocument["areas"], served: string[], path: PathSegment[], context: LoadContext): Record<string, string[]> | undefined {
  if (!areas) return undefined;
  const seen = new Map<string, string>();
  for (const [area, tools] of Object.entries(areas)) {
    tools.forEach((name, index) => {
      if (!served.includes(name))
        context.report.error(
          "E_UNKNOWN_TOOL",
          [...path, area, index],
          `area "${area}" lists "${name}", which this fake does not serve.${suggestion(name, served)}`,
          { hint: "List served tools (the keys of `tools`)." },
        );
      else if (seen.has(name))
        context.report.error("E_DUPLICATE_ID", [...path, area, index], `"${name}" is in two areas: "${seen.get(name)}" and "${area}"`, {
          hint: "Put each tool in one area.",
        });
      seen.set(name, seen.get(name) ?? area);
    });
  }
  return areas;
}

function checkTool(
  tool: CapturedTool,
  spec: ToolDocument,
  path: PathSegment[],
  entityNames: string[],
  module: HandlersModule | undefined,
  context: LoadContext,
): ToolManifest | undefined {
  const { report } = context;
  const reads = checkEntityNames(spec.reads, entityNames, [...path, "reads"], context);
  const writes = checkEntityNames(spec.writes, entityNames, [...path, "writes"], context);
  const kind = spec.kind ?? "stateful";
  if (writes.length > 0 && tool.annotations?.readOnlyHint === true) {
    report.error("E_WRITES_READ_ONLY", [...path, "writes"], `"${tool.name}" writes ${writes.join(", ")}, but its capture says readOnlyHint: true`);
  }
  if (kind === "static" && writes.length > 0) {
    report.error("E_STATIC_TOOL", [...path, "writes"], `the static tool "${tool.name}" writes ${writes.join(", ")}; a static tool writes nothing`);
  }
  const taskSupport = (tool.execution as { taskSupport?: string } | undefined)?.taskSupport;
  if (taskSupport === "optional" || taskSupport === "required") {
    report.error("E_UNSUPPORTED_TOOL", path, `"${tool.name}" declares execution.taskSupport "${taskSupport}", which the MCP SDK cannot serve`, { key: true });
  }
  for (const pointer of nestedDefaults(tool.inputSchema ?? {})) {
    report.warn("W_NESTED_DEFAULT", path, `"${tool.name}" states a default at ${pointer} of its input schema, below the top level: it is not filled`, {
      key: true,
    });
  }
  if (!capturedSchemasCompile(tool, path, context)) return undefined;
  const answer = checkAnswer(tool, spec, path, context);
  const handler = checkHandler<ToolHandler>(tool.name, spec, path, module, context);
  if (handler?.kind === "jsonata") {
    checkSetTargets(tool.name, handler.jsonata.writes, writes, entityNames, [...path, "jsonata", "set"], context);
    checkArgumentReads(tool, spec.jsonata, [...path, "jsonata"], context);
    checkStateReads(tool.name, spec.jsonata, entityNames, [...reads, ...writes], [...path, "jsonata"], context);
  }
  if (!answer || !handler) return undefined;
  return {
    name: tool.name,
    captured: tool,
    kind,
    reads,
    writes,
    answer,
    handler,
    ...(spec.listed && { listed: spec.listed }),
    source: report.location(path),
  };
}

/** The captured input and output schemas must compile as the host will compile them (2020-12 by default, as the SDK does). */
function capturedSchemasCompile(tool: CapturedTool, path: PathSegment[], context: LoadContext): boolean {
  let ok = true;
  for (const key of ["inputSchema", "outputSchema"] as const) {
    const schema = tool[key];
    if (schema === undefined) continue;
    try {
      compileNotingPatterns(() => capturedCompiler.compile(key === "inputSchema" ? { type: "object", ...schema } : schema), path, context, { key: true });
    } catch (error) {
      ok = false;
      context.report.error(
        "E_CAPTURE_INVALID",
        path,
        `the captured ${key} of "${tool.name}" does not compile: ${(error as Error).message.replace(/^\[eval-simulate\] /, "")}`,
        { key: true, hint: "Re-capture the server, or fix the capture file's schema." },
      );
    }
  }
  return ok;
}

const capturedCompiler = createSchemaCompiler({ defaultDialect: "2020-12" });

/** A JSONata `set` may only change entities that exist and that the tool declares in `writes`. */
export function checkSetTargets(
  tool: string,
  set: readonly string[],
  writes: string[],
  entityNames: string[],
  path: PathSegment[],
  context: LoadContext,
): void {
  for (const entity of set) {
    if (!entityNames.includes(entity)) {
      context.report.error(
        "E_UNKNOWN_ENTITY",
        [...path, entity],
        `set names "${entity}", which is not an entity of this fake.${suggestion(entity, entityNames)}`,
        { key: true },
      );
    } else if (!writes.includes(entity)) {
      context.report.error("E_SET_NOT_WRITTEN", [...path, entity], `"${tool}" sets "${entity}" but does not list it in writes`, { key: true });
    }
  }
}

function checkAnswer(tool: CapturedTool, spec: ToolDocument, path: PathSegment[], context: LoadContext): AnswerSpec | undefined {
  const { report } = context;
  const at = [...path, "answer"];
  if (tool.outputSchema) {
    const answer = spec.answer;
    const others = Object.keys(answer ?? {}).filter((key) => key !== "text");
    if (others.length > 0) {
      report.error(
        "E_ANSWER_FORBIDDEN",
        at,
        `"${tool.name}" states an outputSchema in its capture, so it answers with structured content: its answer may only say how the text beside it is written (\`text\`)`,
        { key: true },
      );
      return undefined;
    }
    const text = answer?.text;
    if (text !== undefined && text !== "json" && text !== "json-pretty" && !checkJsonata(text, [...at, "text"], context)) return undefined;
    return { format: "json", schema: tool.outputSchema, structured: true, ...(text !== undefined && { text }) };
  }
  const answer = spec.answer;
  if (!answer?.format) {
    report.error("E_ANSWER_MISSING", answer ? at : path, `"${tool.name}" needs an answer format: its capture states no outputSchema`, { key: true });
    return undefined;
  }
  let ok = true;
  if (answer.text !== undefined) {
    report.error("E_ANSWER_INVALID", [...at, "text"], "`text` goes with a tool whose capture states an outputSchema (the text beside its structured content)", {
      key: true,
    });
    ok = false;
  }
  if ((answer.format === "text" || answer.format === "content") && answer.schema !== undefined) {
    report.error("E_ANSWER_INVALID", [...at, "schema"], `a ${answer.format} answer has no schema`, { key: true });
    ok = false;
  }
  if (answer.format === "prefixed_json" && answer.prefix === undefined) {
    report.error("E_ANSWER_INVALID", at, "a prefixed_json answer needs its `prefix`", { key: true });
    ok = false;
  }
  for (const key of ["prefix", "suffix"] as const) {
    if (answer.format !== "prefixed_json" && answer[key] !== undefined) {
      report.error("E_ANSWER_INVALID", [...at, key], `\`${key}\` goes with the prefixed_json format only`, { key: true });
      ok = false;
    }
  }
  const schema = answer.schema === undefined ? undefined : checkSchema(answer.schema as Record<string, unknown>, [...at, "schema"], context);
  if (!ok || (answer.schema !== undefined && schema === undefined)) return undefined;
  return {
    format: answer.format,
    ...(schema === undefined ? {} : { schema }),
    ...(answer.prefix === undefined ? {} : { prefix: answer.prefix }),
    ...(answer.suffix === undefined ? {} : { suffix: answer.suffix }),
  } as AnswerSpec;
}

export type { ToolHandler };
