import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
// What a user imports from `eval-simulate/runner` to write a host of their own.
import { type AgentHost, FatalRunError } from "../../engine/entries/runner.js";
import { type AgentPlan, describeAgentHost } from "./agent-host-suite.js";

/** A host as a user writes one: their own agent, reaching the trial's MCP servers with the official client. */
function planHost(plan: AgentPlan): AgentHost {
  return {
    label: "my-agent",
    async run({ session, signal }) {
      const urls = new Map(session.mcpServers().map((server) => [server.id, server.url]));
      const clients = new Map<string, Client>();
      try {
        for (const call of plan.calls) {
          if (signal.aborted) break;
          let client = clients.get(call.server);
          if (!client) {
            client = new Client({ name: "my-agent", version: "1.0.0" });
            await client.connect(new StreamableHTTPClientTransport(new URL(urls.get(call.server)!)));
            clients.set(call.server, client);
          }
          await client.callTool({ name: call.tool, arguments: call.arguments }, { signal });
        }
      } finally {
        await Promise.allSettled([...clients.values()].map((client) => client.close()));
      }
      if (plan.ends === "lost") throw new Error("my agent's backend is down");
      if (plan.ends === "fatal") throw new FatalRunError("my agent's key was refused");
      return { answer: plan.answer, requests: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 };
    },
  };
}

describeAgentHost("a host of your own", async () => ({ host: planHost }), { label: "my-agent", losesTrials: true, stopsRuns: true });
