import type { fromJsonSchema } from "@modelcontextprotocol/server";
import { answerResult, nestedDefaults } from "../contract/index.js";
import { sdkSchemaValidator } from "../contract/index.js";
import type { ToolResult } from "../handlers/index.js";
import type { Contract } from "./contract-of.js";

type StandardJsonSchema = ReturnType<typeof fromJsonSchema>;

/**
 * What the SDK's `fromJsonSchema(schema, validator)` builds, built here so that loading a
 * handlers module that calls `config()` does not load the SDK: a Standard Schema whose JSON
 * Schema is `schema` and whose check is the validator's (compiled now, as the SDK does).
 */
function standardSchemaOf(schema: Record<string, unknown>, validator: ReturnType<typeof sdkSchemaValidator>): StandardJsonSchema {
  const check = validator.getValidator(schema);
  return {
    "~standard": {
      version: 1,
      vendor: "mcp",
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (data: unknown) => {
        const result = check(data);
        return result.valid ? { value: result.data } : { issues: [{ message: result.errorMessage }] };
      },
    },
  } as unknown as StandardJsonSchema;
}

/** Marks a config as made by `config(name)`, for the start-up check. */
export const CONFIG_OF = Symbol.for("eval-simulate.config-of");

/** A tool's registration: what `McpServer.registerTool` takes, from the captured tool. */
export interface ToolConfig {
  title?: string;
  description?: string;
  inputSchema: StandardJsonSchema;
  outputSchema?: StandardJsonSchema;
  annotations?: Record<string, unknown>;
  icons?: unknown[];
  _meta?: Record<string, unknown>;
  [CONFIG_OF]?: string;
}

/**
 * Helpers to write a fake's handlers in TypeScript from its contract: `config(name)` builds a
 * tool's registration from its captured entry, and `answer(name, value)` answers in the tool's
 * declared format. `config` refuses a tool that is not captured, one that needs task support,
 * and one whose input schema states a default below the top level (it would not be filled).
 *
 * @example
 * const { config, answer } = toolsOf(contract);
 * server.registerTool("list-deals", config("list-deals"), async ({ limit }) => answer("list-deals", { deals }));
 */
export function toolsOf(contract: Contract) {
  // The SDK's own ajv would run captured patterns on JavaScript's backtracking engine.
  const validator = sdkSchemaValidator();
  const entry = (name: string) => {
    const found = contract[name];
    if (!found) throw new Error(`[eval-simulate] "${name}" is not a tool of this contract; its tools: ${Object.keys(contract).join(", ")}`);
    return found;
  };
  return {
    config(name: string): ToolConfig {
      const { tool, args } = entry(name);
      const task = (tool.execution as { taskSupport?: string } | undefined)?.taskSupport;
      if (task === "optional" || task === "required") {
        throw new Error(`[eval-simulate] "${name}" declares execution.taskSupport "${task}", which the MCP SDK cannot serve`);
      }
      const nested = nestedDefaults(args);
      if (nested.length > 0) throw new Error(`[eval-simulate] "${name}" states defaults below the top level (${nested.join(", ")}), which are not filled`);
      const config: ToolConfig = {
        ...(tool.title === undefined ? {} : { title: tool.title as string }),
        ...(tool.description === undefined ? {} : { description: tool.description as string }),
        inputSchema: standardSchemaOf({ type: "object", ...(tool.inputSchema ?? {}) }, validator),
        ...(tool.outputSchema ? { outputSchema: standardSchemaOf(tool.outputSchema as Record<string, unknown>, validator) } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        ...(tool.icons ? { icons: tool.icons as unknown[] } : {}),
        ...(tool._meta ? { _meta: tool._meta as Record<string, unknown> } : {}),
      };
      Object.defineProperty(config, CONFIG_OF, { value: name, enumerable: false });
      return config;
    },
    answer(name: string, value: unknown): ToolResult {
      return answerResult(entry(name).answer, value);
    },
  };
}
