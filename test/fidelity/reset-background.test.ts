import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
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

describe("a reset command's folder and time", { timeout: 30_000 }, () => {
  const withTmpdir = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const saved = process.env.TMPDIR;
    const odd = join(dir, name);
    mkdirSync(odd);
    process.env.TMPDIR = odd;
    try {
      return await run();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  };

  it("refuses to write a folder a shell reads specially into the command, and runs nothing", async () => {
    const marker = join(dir, "injected");
    await withTmpdir(`a b;touch ${marker.replace(/\//g, "_")}`, async () => {
      await expect(onFreshTarget(target, "touch {{tmp}}/x", async () => "replayed")).rejects.toThrow(
        /holds characters a shell reads specially.*\$EVAL_SIMULATE_TMP/,
      );
    });
    expect(existsSync(marker)).toBe(false);
  });

  it("gives the same folder as $EVAL_SIMULATE_TMP, which the shell expands as one word", async () => {
    const seen = await withTmpdir("with space", () =>
      onFreshTarget({ command: [process.execPath, "-e", "0", "{{tmp}}"] }, 'touch "$EVAL_SIMULATE_TMP/x"', async (filled) => {
        const folder = (filled as { command: string[] }).command[3];
        return existsSync(join(folder, "x"));
      }),
    );
    expect(seen).toBe(true);
  });

  it("stops a reset past its time together with what it started", async () => {
    const pidFile = join(dir, "pid-timeout");
    const reset = `sleep 600 & echo $! > ${JSON.stringify(pidFile)}; sleep 600`;
    await expect(onFreshTarget(target, reset, async () => "replayed", { resetTimeoutMs: 1000 })).rejects.toThrow(/was stopped \(SIGKILL, past 1 s\)/);
    const pid = Number(readFileSync(pidFile, "utf8"));
    pids.push(pid);
    await expect.poll(() => processGone(pid), { timeout: 5000 }).toBe(true);
  });
});
