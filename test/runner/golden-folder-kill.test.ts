import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { writeEvals } from "../support/evals-files.js";

/** An agent command that SIGKILLs the eval process: its parent (the worker)'s parent, read from /proc. */
const killer = JSON.stringify(
  `const stat = require("fs").readFileSync("/proc/" + process.ppid + "/stat", "utf8"); process.kill(Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]), "SIGKILL");`,
);

describe("eval --workers N killed", () => {
  it.runIf(existsSync("/proc/self/stat"))(
    "leaves no golden folder behind once its workers have gone",
    async () => {
      const { file, dir } = writeEvals(`
  - id: kills-the-run
    iterations: 2
    accuracyThreshold: 1
    host: { type: command, command: [${JSON.stringify(process.execPath)}, "-e", ${killer}] }
    expect: { answer: { contains: done } }
`);
      const scratch = mkdtempSync(join(tmpdir(), "golden-kill-"));
      try {
        const run = await runCli(["eval", file, "--workers", "2", "--out", join(dir, "results.ndjson")], { env: { TMPDIR: scratch } });
        expect(run.code).toBeNull();
        // The workers notice their parent is gone (the IPC channel closes) and end; a bounded wait for them.
        const folders = () => readdirSync(scratch).filter((name) => name.startsWith("eval-simulate-golden-"));
        for (let waited = 0; folders().length > 0 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(folders()).toEqual([]);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
