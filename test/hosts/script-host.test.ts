import { describe, expect, it } from "vitest";
import { scriptHost } from "../../engine/eval/hosts/script-host.js";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { writeEvals } from "../support/evals-files.js";
import { describeAgentHost } from "./agent-host-suite.js";

// The script host plays the case's `script`, which the suite writes from each plan.
describeAgentHost("the script host", async () => ({ host: () => scriptHost() }), { label: "script", losesTrials: false, stopsRuns: false });

describe("the script host, beyond the contract", () => {
  it("has no infrastructure to lose: a case without a script fails its trial, naming what to add", async () => {
    const { file } = writeEvals(`
  - id: no-script
    scenario: quiet
    expect: { calls: [] }
`);
    const result = await runEvals({ evals: file, host: scriptHost() });
    expect(result.lines[0]).toMatchObject({ status: "fail", reason: "case no-script has no script to play (add script: { calls, answer })" });
  }, 60_000);
});
