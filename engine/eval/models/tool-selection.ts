/**
 * One turn of tool selection: the query and a whole catalog (names, descriptions and input
 * schemas exactly as captured), a tool call forced, nothing executed. What the model picked, in
 * order, is the answer.
 */
import type { LanguageModel } from "ai";
import { loadAi } from "./language-model.js";
import type { Usage } from "./pricing.js";

export interface CatalogTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface Selection {
  /** The tools the model called, in order (a model may call several at once). */
  tools: string[];
  usage: Usage;
}

/**
 * Asks the model which tool answers the query.
 *
 * @example const { tools } = await selectTools({ model, query: "Close ticket T-101", catalog });
 */
export async function selectTools(options: {
  model: LanguageModel;
  query: string;
  catalog: readonly CatalogTool[];
  system?: string;
  signal?: AbortSignal;
}): Promise<Selection> {
  const { generateText, tool, jsonSchema, stepCountIs } = await loadAi();
  const tools = Object.fromEntries(
    options.catalog.map((entry) => [
      entry.name,
      tool({ description: entry.description ?? "", inputSchema: jsonSchema(entry.inputSchema as Parameters<typeof jsonSchema>[0]) }),
    ]),
  );
  const result = await generateText({
    model: options.model,
    system: options.system,
    prompt: options.query,
    tools,
    toolChoice: "required",
    stopWhen: stepCountIs(1),
    maxRetries: 0,
    abortSignal: options.signal,
  });
  return {
    tools: result.toolCalls.map((call) => call.toolName),
    usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
  };
}
