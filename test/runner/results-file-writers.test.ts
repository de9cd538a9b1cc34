import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults } from "../../engine/eval/results/results-file.js";
import { CLI, runCli } from "../support/cli-process.js";
import { ROOT } from "../support/examples.js";
import { writeEvals } from "../support/evals-files.js";
import { trialLine } from "../support/trial-lines.js";

/**
 * A results file loses nothing, whoever wrote it last: a trial appended after a torn line (a run
 * killed mid-write) is a line of its own, and two runs on one file never both run its trials.
 * Each run here is a real `eval-simulate eval` process.
 */
const SCRIPTED = (iterations: number) => `
  - id: a
    iterations: ${iterations}
    accuracyThreshold: 1
    host: { type: script }
    script: { calls: [], answer: Done. }
    expect: { answer: { contains: Done } }
`;

const line = (iteration: number) => JSON.stringify(trialLine({ case: "a", iteration, iterations: 2, accuracyThreshold: 1 }));

/** Resolves once `check` holds, polling; throws after a minute, so a failure stops the processes it started. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !check(); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() - started > 60_000) throw new Error(`never happened: ${what}`);
  }
}

describe("the results file across eval processes", { timeout: 120_000 }, () => {
  it("starts the next trial on a fresh line after a torn last line, and says which line it repaired", async () => {
    const { file, dir } = writeEvals(SCRIPTED(2));
    const out = join(dir, "out.ndjson");
    writeFileSync(out, `${line(0)}\n{"case":"a","iter`);
    const resumed = await runCli(["eval", file, "--out", out]);
    expect(resumed.stderr).toContain(`${out}:2 was cut short (an interrupted write): skipped, and repaired`);
    expect(resumed.code).toBe(0);
    expect(readResults(out).map((l) => `${l.case}#${l.iteration}:${l.status}`)).toEqual(["a#0:pass", "a#1:pass"]);
    expect(readFileSync(out, "utf8").split("\n")[1]).toBe('{"case":"a","iter');

    // The hand-written line carries no case hash, so its trial was run again (appended after the torn line).
    expect(readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(4);
    // Nothing is run again: the trials appended after the torn line were kept.
    const again = await runCli(["eval", file, "--out", out, "--format", "json"]);
    expect(again.code).toBe(0);
    expect(readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(4);
    const report = await runCli(["report", out]);
    expect(report.stderr).toContain(`${out}:2 is a line cut short (an interrupted write); skipped`);
    expect(report.stdout).toMatch(/trials: 2 \(2 passed/);
  });

  it("refuses a second eval on a results file another eval is writing, and takes over a lock its dead owner left", async () => {
    const { file, dir } = writeEvals(`
  - id: slow
    host: { type: command, command: [${JSON.stringify(process.execPath)}, -e, "const fs = require('node:fs'); const t = setInterval(() => { if (fs.existsSync(process.argv[1])) { clearInterval(t); console.log('Done.'); } }, 50)", "{{case}}.go"] }
    expect: { answer: { contains: Done } }
`);
    const out = join(dir, "out.ndjson");
    const first = spawn(process.execPath, [CLI, "eval", file, "--out", out], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    let firstErr = "";
    first.stderr.on("data", (d) => (firstErr += d));
    const firstExit = new Promise<number | null>((done) => first.on("close", done));
    try {
      await until(() => existsSync(`${out}.lock`) && readFileSync(`${out}.lock`, "utf8").trim() === String(first.pid), "the first eval holds the lock");
      const second = await runCli(["eval", file, "--out", out], { cwd: ROOT });
      expect(second.stderr).toContain(`${out} is being written by another eval (pid ${first.pid}): wait for it to finish, or give this run its own --out`);
      expect(second.code).toBe(2);
      writeFileSync(join(dir, "slow.go"), "");
      expect(await firstExit).toBe(0);
    } finally {
      first.kill("SIGTERM");
    }
    expect(firstErr).not.toContain("warning");
    expect(existsSync(`${out}.lock`)).toBe(false);
    expect(readResults(out)).toHaveLength(1);

    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(`${out}.lock`, `${dead}\n`);
    const taken = await runCli(["eval", file, "--out", out, "--fresh"], { cwd: dir });
    expect(taken.stderr).toContain(`${out}.lock was left by an eval that is no longer running (pid ${dead}); taken over`);
    expect(taken.code).toBe(0);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });
});
