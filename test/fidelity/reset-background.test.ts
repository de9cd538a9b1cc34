import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { onFreshTarget } from "../../engine/tools/fidelity/fresh-target.js";
import { processGone } from "../support/process-gone.js";

const dir = mkdtempSync(join(tmpdir(), "eval-simulate-reset-bg-"));
const pids: number[] = [];
afterAll(() => {
  for (const pid of pids) if (!processGone(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const target = { command: [process.execPath, "-e", "0"] };

// The replay is a stand-in: what is tested is that the reset command's end is seen.
describe("a reset command that leaves a process behind", { timeout: 30_000 }, () => {
  it("is done when the command exits, though what it started still holds its output", async () => {
    const pidFile = join(dir, "pid");
    // The background sleep inherits the reset's stdout and stderr and keeps them open for minutes.
    const reset = `sleep 600 & echo $! > ${JSON.stringify(pidFile)}`;
    const replayed = await onFreshTarget(target, reset, async () => "replayed");
    pids.push(Number(readFileSync(pidFile, "utf8")));
    expect(replayed).toBe("replayed");
  });

  it("still reports the exit and output of a reset that fails after starting one", async () => {
    const pidFile = join(dir, "pid-2");
    const reset = `sleep 600 & echo $! > ${JSON.stringify(pidFile)}; echo no database >&2; exit 4`;
    await expect(onFreshTarget(target, reset, async () => "replayed")).rejects.toThrow(/exited 4: no database$/);
    pids.push(Number(readFileSync(pidFile, "utf8")));
  });
});
