import { describe, expect, it } from "vitest";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { writeEvals } from "../support/evals-files.js";
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

describe("the command host in a conversation", () => {
  it("fills {{turn}}, {{resume}} (its arguments from the second turn on) and {{transcript}} each turn", async () => {
    // The agent prints the arguments it was given as its answer.
    const host = commandHost({
      command: [process.execPath, "-e", "console.log(JSON.stringify(process.argv.slice(1)))", "{{turn}}", "{{resume}}", "{{prompt}}", "{{transcript}}"],
      resume: ["--resume", "{{session}}"],
    });
    const { file } = writeEvals(`
  - id: talk
    scenario: quiet
    prompt: Hi
    turns: [{ answer: unused }, { user: Umbrella }]
    expect: { turns: { exact: 2 } }
`);
    const result = await runEvals({ evals: file, host });
    const line = result.lines[0];
    expect(line.status).toBe("pass");
    const [first, second] = line.transcript!.filter((m) => m.role === "assistant").map((m) => JSON.parse(m.content!) as string[]);
    expect(first).toEqual(["1", "Hi", "user: Hi"]);
    expect(second).toEqual(["2", "--resume", line.session!.id, "Umbrella", `user: Hi\nassistant: ${JSON.stringify(first)}\nuser: Umbrella`]);
  }, 60_000);
});

describe("the command host's output", () => {
  it("keeps a character whose bytes arrive in two reads of the agent's stdout", async () => {
    // "é" is two bytes: the first is written, then the second after a pause, so they come in separate reads.
    const script = "process.stdout.write(Buffer.from([0xc3])); setTimeout(() => process.stdout.write(Buffer.from([0xa9, 0x0a])), 300);";
    const host = commandHost({ command: [process.execPath, "-e", script] });
    const { file } = writeEvals(`
  - id: accent
    scenario: quiet
    prompt: Hi
    script: { calls: [] }
    expect: { answer: { contains: "é" } }
`);
    const result = await runEvals({ evals: file, host });
    expect(result.lines[0].answer).toBe("é");
    expect(result.lines[0].status).toBe("pass");
  }, 60_000);
});
