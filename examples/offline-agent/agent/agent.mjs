#!/usr/bin/env node
// A small agent on the AI SDK, written as a user writes one: the MCP servers of the config it is
// handed (EVAL_SIMULATE_MCP_CONFIG, the mcpServers shape agent CLIs read) offered as tools, and a
// model from a provider package, which reads its base URL and key from the environment
// (OPENAI_BASE_URL/OPENAI_API_KEY, ANTHROPIC_BASE_URL/ANTHROPIC_API_KEY). Nothing in it knows
// about eval-simulate's model fakes: the command host points those variables at them.
//   node agent.mjs [--provider openai|openai-chat|openai-compatible|anthropic] [--stream] "<prompt>"
import { readFileSync } from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";

const argv = process.argv.slice(2);
const provider = argv.includes("--provider") ? argv[argv.indexOf("--provider") + 1] : "openai";
const stream = argv.includes("--stream");
const prompt = argv.at(-1);

/** The model, from the provider package the flag names. */
async function model() {
  if (provider === "anthropic") return (await import("@ai-sdk/anthropic")).anthropic("claude-haiku-4-5");
  if (provider === "openai-compatible") {
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    const local = createOpenAICompatible({ name: "local", baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY, includeUsage: true });
    return local("qwen3");
  }
  const { openai } = await import("@ai-sdk/openai");
  // openai(...) speaks the responses API; openai.chat(...) chat completions.
  return provider === "openai-chat" ? openai.chat("gpt-4.1-mini") : openai("gpt-4.1-mini");
}

/** Every MCP server's tools, as AI SDK tools that call back over MCP. */
async function mcpTools() {
  const { mcpServers } = JSON.parse(readFileSync(process.env.EVAL_SIMULATE_MCP_CONFIG, "utf8"));
  const clients = [];
  const tools = {};
  for (const server of Object.values(mcpServers)) {
    const client = new Client({ name: "offline-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    clients.push(client);
    for (const t of (await client.listTools()).tools)
      tools[t.name] = tool({
        description: t.description,
        inputSchema: jsonSchema(t.inputSchema),
        execute: async (args) => {
          const result = await client.callTool({ name: t.name, arguments: args });
          return result.content.map((part) => part.text ?? "").join("");
        },
      });
  }
  return { tools, close: () => Promise.all(clients.map((c) => c.close())) };
}

const { tools, close } = await mcpTools();
try {
  const request = {
    model: await model(),
    system: "You are a help-desk agent. Use the tools; answer in one short sentence.",
    prompt,
    tools,
    stopWhen: stepCountIs(5),
  };
  if (stream) {
    const result = streamText({
      ...request,
      onError: ({ error }) => {
        throw error;
      },
    });
    let text = "";
    for await (const part of result.fullStream) {
      if (part.type === "error") throw part.error;
      if (part.type === "text-delta") text += part.text;
    }
    // The last step's text is the final message.
    console.log((await result.text) || text);
  } else {
    console.log((await generateText(request)).text);
  }
} finally {
  await close();
}
