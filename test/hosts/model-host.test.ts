import { modelHost } from "../../engine/eval/hosts/model-host.js";
import { SpendLedger } from "../../engine/eval/models/run-budget.js";
import { type ScriptedReply, startScriptedProvider } from "../support/scripted-provider.js";
import { type AgentPlan, describeAgentHost } from "./agent-host-suite.js";

// A model on loopback through the real openai-compatible package: each request is answered from
// the plan by how many tool results it carries, so trials running at once each follow it.
describeAgentHost(
  "the model host",
  async () => {
    let plan: AgentPlan = { calls: [], answer: "" };
    const provider = await startScriptedProvider((request): ScriptedReply => {
      const step = request.toolResults.length;
      const call = plan.calls[step];
      if (call) return { toolCalls: [{ name: call.tool, arguments: call.arguments }] };
      if (plan.ends === "lost") return { status: 503 };
      if (plan.ends === "fatal") return { status: 401, body: { error: { message: "invalid api key", type: "invalid_request_error" } } };
      return { text: plan.answer };
    });
    return {
      host(next) {
        plan = next;
        return modelHost(
          { model: "openai-compatible:scripted", baseURL: provider.baseURL },
          { env: {}, ledger: new SpendLedger(undefined), retry: { retries: 0 } },
        );
      },
      close: () => provider.close(),
    };
  },
  { label: "openai-compatible:scripted", losesTrials: true, stopsRuns: true },
);
