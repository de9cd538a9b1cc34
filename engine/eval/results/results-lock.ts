/**
 * One writer per results file: two `eval` runs resuming the same file would each see the same
 * trials undone and run every one of them twice. A run holds `<file>.lock`, created exclusively
 * (`wx`) and holding its pid; a second run is refused while that process lives, and a lock left
 * by a process that is gone (killed, crashed) is taken over with a warning.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { readRegularFile } from "../../core/files/index.js";

/** Locks this process holds, by lock file: a second run in the same process is refused too. */
const held = new Set<string>();

/** How long a lock file may stay empty (created, its pid not yet written) before it counts as left behind. */
const EMPTY_GRACE_MS = 10_000;

/** A lock file's text: a regular file of a few bytes (a FIFO put in its place cannot hang the run). */
const readLock = (lock: string) => readRegularFile(lock, 64);

/** Whether a process with this pid exists (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid a lock file holds, `"held"` when it cannot be told but may be live, or undefined when nobody holds it. */
function holder(lock: string): number | "held" | undefined {
  const read = readLock(lock);
  if (!read.ok) return read.code === "ENOENT" ? undefined : "held";
  const pid = Number(read.text.trim());
  if (Number.isInteger(pid) && pid > 0) return pid !== process.pid && alive(pid) ? pid : undefined;
  try {
    return Date.now() - statSync(lock).mtimeMs < EMPTY_GRACE_MS ? "held" : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock of a results file, or throws saying who holds it. Returns the function that
 * gives it back (also called when the process exits).
 *
 * @example const release = lockResults("eval-results/run.ndjson", warn); try { … } finally { release(); }
 */
export function lockResults(file: string, warn: (message: string) => void = () => undefined): () => void {
  const lock = `${resolve(file)}.lock`;
  if (held.has(lock)) throw new Error(`[eval-simulate] ${file} is being written by another run in this process: give each run its own --out`);
  mkdirSync(dirname(lock), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST")
        throw new Error(`[eval-simulate] cannot lock ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
      const pid = holder(lock);
      if (pid !== undefined || attempt > 0) {
        const who = typeof pid === "number" ? `another eval (pid ${pid})` : "another eval";
        throw new Error(
          `[eval-simulate] ${file} is being written by ${who}: wait for it to finish, or give this run its own --out (remove ${lock} if no eval is running)`,
        );
      }
      const read = readLock(lock);
      const left = read.ok ? read.text.trim().slice(0, 20) : "";
      warn(`[eval-simulate] warning: ${lock} was left by an eval that is no longer running${left ? ` (pid ${left})` : ""}; taken over`);
      rmSync(lock, { force: true });
    }
  }
  held.add(lock);
  const release = () => {
    if (!held.delete(lock)) return;
    process.off("exit", release);
    const read = readLock(lock);
    if (read.ok && read.text.trim() === String(process.pid)) rmSync(lock, { force: true });
  };
  process.on("exit", release);
  return release;
}
