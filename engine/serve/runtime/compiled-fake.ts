import { type CompiledSchema, createSchemaCompiler, defaultsOf, type SchemaCompiler } from "../../author/contract/index.js";
import type { ServerManifest, ToolManifest } from "../../author/model/index.js";

/** One served tool with everything a call needs, built once at start-up. */
export interface CompiledTool {
  manifest: ToolManifest;
  /** The captured input schema, compiled as the SDK does (2020-12 unless `$schema` says). */
  args: CompiledSchema;
  /** Top-level defaults the input schema states, filled when a call omits them. */
  defaults: Record<string, unknown>;
  /** The answer's schema (declared, or the outputSchema), when it has one. */
  answerSchema?: CompiledSchema;
}

/** An MCP fake ready to serve: its tools compiled, by name, in captured order. */
export interface CompiledServer {
  id: string;
  manifest: ServerManifest;
  tools: Map<string, CompiledTool>;
  /** Each entity's schema: a call's changes are checked before they commit. */
  entities: Map<string, CompiledSchema>;
  timeoutMs: number;
}

/**
 * Compiles a server's schemas once. Each fake has its own compilers, so two schemas with the
 * same `$id` in different fakes never share a validator.
 *
 * @example const fake = compileServer(manifest.servers[0]);
 */
export function compileServer(server: ServerManifest): CompiledServer {
  // Captured schemas are read the way the MCP SDK reads them; manifest-written answer schemas
  // default to draft-07 like the rest of the manifest.
  const captured: SchemaCompiler = createSchemaCompiler({ defaultDialect: "2020-12" });
  const declared: SchemaCompiler = createSchemaCompiler();
  const tools = new Map<string, CompiledTool>();
  for (const tool of server.tools) {
    const input = tool.captured.inputSchema ?? { type: "object" };
    const answer = tool.answer.schema;
    tools.set(tool.name, {
      manifest: tool,
      args: captured.compile({ type: "object", ...input }),
      defaults: defaultsOf(input),
      answerSchema: answer === undefined ? undefined : (tool.answer.structured ? captured : declared).compile(answer),
    });
  }
  const entities = new Map(server.entities.map((entity) => [entity.name, declared.compile(entity.schema)]));
  return { id: server.id, manifest: server, tools, entities, timeoutMs: server.timeoutMs };
}
