import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runEvals } from "../../engine/eval/runner/run-evals.js";
import { writeEvals } from "../support/evals-files.js";
import { ROOT } from "../support/examples.js";
import { eventually, pidFrom, processGone } from "../support/process-gone.js";

// Each agent is `sh -c` with a background `sleep 30` that keeps the agent's stdout open and
// writes its pid, so a test can tell the trial ended without waiting for the sleep and that the
// sleep was killed with its parent. Every test's limit is well under those 30 seconds.
function shellAgent(script: (pidFile: string) => string, extra = "") {
  const pidFile = join(mkdtempSync(join(tmpdir(), "eval-simulate-agent-")), "sleep.pid");
  const { file } = writeEvals(`
  - id: shell-agent
    scenario: quiet
    clock: "2026-10-01T09:00:00.000Z"
    prompt: Say done.
    host: { type: command, command: [sh, -c, ${JSON.stringify(script(pidFile))}]${extra} }
    expect:
      answer: { pattern: "^done$" }
`);
  return { file, pidFile };
}

const killed = async (pidFile: string) => {
  const sleep = await pidFrom(pidFile);
  await eventually(() => processGone(sleep), `the sleep (${sleep}) to be killed`);
};

describe("the command host's agent processes", () => {
  it("ends a trial when the agent exits, though a child it left behind still holds its stdout, and kills that child", async () => {
    const { file, pidFile } = shellAgent((pid) => `sleep 30 & echo $! > ${pid}; echo done`);
    const result = await runEvals({ evals: file });
    expect(result.lines[0]).toMatchObject({ status: "pass", answer: "done" });
    await killed(pidFile);
  }, 45_000);

  it("stops at timeoutMs an agent that ignores SIGTERM, with every process it started, and fails its trial", async () => {
    const { file, pidFile } = shellAgent((pid) => `trap '' TERM; sleep 30 & echo $! > ${pid}; sleep 30; echo done`, ", timeoutMs: 1500");
    const result = await runEvals({ evals: file });
    expect(result.lines[0].status).toBe("fail");
    expect(result.lines[0].reason).toContain("did not finish within 1500 ms");
    await killed(pidFile);
  }, 45_000);

  it("kills the agent and its children when the run is aborted, and the trial is not run", async () => {
    const { file, pidFile } = shellAgent((pid) => `sleep 30 & echo $! > ${pid}; wait; echo done`);
    const controller = new AbortController();
    const run = runEvals({ evals: file, signal: controller.signal });
    await pidFrom(pidFile);
    controller.abort(new Error("interrupted"));
    const result = await run;
    expect(result.stopped).toBe("the run was interrupted");
    expect(result.lines[0].status).toBe("not_run");
    await killed(pidFile);
  }, 45_000);

  for (const how of ["exit", "signal"] as const) {
    it(`kills the agent and its children when the runner's process ends (${how === "exit" ? "process.exit" : "an unhandled SIGTERM"})`, async () => {
      const { file, pidFile } = shellAgent((pid) => `sleep 30 & echo $! > ${pid}; wait; echo done`);
      const runner = spawn(process.execPath, [`${ROOT}test/fixtures/agent-cli/runner-that-ends.mjs`, file, pidFile, how], { stdio: "inherit" });
      const ended = new Promise((resolve) => runner.on("exit", resolve));
      await pidFrom(pidFile);
      await ended;
      await killed(pidFile);
    }, 45_000);
  }
});
