/**
 * The agent loop with a model: the prompt, the session's tools over MCP, and up to `maxSteps`
 * model requests, each retried on its own (never the loop: a tool call already changed the
 * world), charged to the run's budget, and stopped before the budget would be crossed.
 */
import type { LanguageModel } from "ai";
import { loadAi } from "./language-model.js";
import { applyVariant, type Variant } from "../../judge/selection/index.js";
import { callServedTool, type ClientSetup, connectTools, type McpServerRef } from "./mcp-tools.js";
import type { Budget, Usage } from "./pricing.js";
import { tracedModel } from "./traced-model.js";

export interface ModelAgentOptions {
  model: LanguageModel;
  prompt: string;
  system?: string;
  servers: readonly McpServerRef[];
  maxSteps?: number;
  temperature?: number;
  maxTokens?: number;
  budget?: Budget;
  signal?: AbortSignal;
  /** Sent with every MCP request (a session header, say). */
  headers?: Record<string, string>;
  /** Overrides the descriptions and input schemas the model is offered (the fakes still answer as captured). */
  variant?: Variant;
  /**
   * The conversation so far (an earlier run's `transcript`: AI SDK messages), sent before
   * `prompt`, so a model in a conversation keeps its history across turns.
   */
  history?: readonly unknown[];
  /** The trial's (or turn's) W3C `traceparent` when tracing: model requests and tool calls become its spans. */
  traceparent?: string;
  /** Who answers the fakes' questions to the MCP clients (elicitation, sampling): see `ClientSetup`. */
  clientSetup?: ClientSetup;
}

/** What one agent run did. */
export interface AgentRun {
  /** The model's last message. */
  finalText: string;
  toolCalls: Array<{ tool: string; server: string; arguments: unknown; isError: boolean }>;
  /** Model requests made. */
  requests: number;
  usage: Usage;
  /** Why the loop ended: the model stopped, the step limit, or the budget. */
  finish: "stop" | "max_steps" | "budget";
  /** The conversation: the prompt, then the model's messages and the tool results, as the AI SDK keeps them. */
  transcript: unknown[];
}

/**
 * Runs the model against the servers' tools until it answers without a tool call.
 *
 * @example const run = await runModelAgent({ model, prompt: "Close T-101", servers: session.mcpServers() });
 */
export async function runModelAgent(options: ModelAgentOptions): Promise<AgentRun> {
  const { generateText, dynamicTool, jsonSchema, stepCountIs } = await loadAi();
  const connected = await connectTools(options.servers, options.headers, options.clientSetup);
  const { close } = connected;
  const tools = options.variant ? applyVariant(connected.tools, options.variant) : connected.tools;
  const calls: AgentRun["toolCalls"] = [];
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let requests = 0;
  let overBudget = false;
  try {
    const toolSet = Object.fromEntries(
      tools.map((served) => [
        served.name,
        dynamicTool({
          description: served.tool.description ?? "",
          inputSchema: jsonSchema(served.tool.inputSchema as Parameters<typeof jsonSchema>[0]),
          execute: async (args, { abortSignal, toolCallId }) => {
            const outcome = await callServedTool(
              served,
              args,
              abortSignal,
              options.traceparent ? { parent: options.traceparent, callId: toolCallId } : undefined,
            );
            calls.push({ tool: served.tool.name, server: served.server, arguments: args, isError: outcome.isError });
            // A tool error reaches the model as an error result, as MCP hosts show it.
            if (outcome.isError) throw new Error(outcome.text);
            return outcome.text;
          },
        }),
      ]),
    );
    const maxSteps = options.maxSteps ?? 10;
    const opening = { role: "user" as const, content: options.prompt };
    const history = (options.history ?? []) as Array<typeof opening>;
    const result = await generateText({
      model: options.traceparent
        ? await tracedModel(options.model, options.traceparent, { temperature: options.temperature, maxTokens: options.maxTokens })
        : options.model,
      system: options.system,
      ...(history.length > 0 ? { messages: [...history, opening] } : { prompt: options.prompt }),
      tools: toolSet,
      temperature: options.temperature,
      maxOutputTokens: options.maxTokens,
      maxRetries: 0,
      abortSignal: options.signal,
      stopWhen: [stepCountIs(maxSteps), () => (overBudget = options.budget !== undefined && !options.budget.allows())],
      onStepFinish: (step) => {
        requests++;
        const stepUsage = { inputTokens: step.usage.inputTokens ?? 0, outputTokens: step.usage.outputTokens ?? 0 };
        usage.inputTokens += stepUsage.inputTokens;
        usage.outputTokens += stepUsage.outputTokens;
        options.budget?.charge(stepUsage);
      },
    });
    const last = result.steps.at(-1);
    const stoppedOnTools = last !== undefined && last.toolCalls.length > 0;
    return {
      finalText: result.text,
      toolCalls: calls,
      requests,
      usage,
      finish: stoppedOnTools ? (overBudget ? "budget" : "max_steps") : "stop",
      transcript: [...history, opening, ...result.response.messages],
    };
  } finally {
    await close();
  }
}
