import { commandHost } from "../../engine/eval/hosts/command-host.js";
import { ROOT } from "../support/examples.js";
import { describeAgentHost } from "./agent-host-suite.js";

const AGENT = `${ROOT}test/hosts/fixtures/plan-agent.mjs`;

// An agent CLI given the session's MCP config file and the plan as its arguments.
describeAgentHost(
  "the command host",
  async () => ({ host: (plan) => commandHost({ command: [process.execPath, AGENT, "{{mcpConfig}}", JSON.stringify(plan)] }) }),
  { label: "command:node", losesTrials: true, stopsRuns: false },
);
