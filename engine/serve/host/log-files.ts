/**
 * The file operations a state file's log needs: a line written whole to an append-mode file,
 * a file replaced atomically (fsynced before the rename, so a power loss never leaves it empty),
 * a log opened to append to with the torn line a crash left at its end cut off, and the lock
 * that keeps a second process from writing the same state file.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";

/** Writes a buffer whole at the end of an append-mode file: one write call unless the OS takes less. */
export function writeWhole(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** Writes a file through a temporary file beside it, fsynced, then renamed over it. */
export function writeFileAtomicSync(file: string, text: string, temporary: string): void {
  const fd = openSync(temporary, "w");
  try {
    writeWhole(fd, Buffer.from(text));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

/** Opens a log to append to, its torn last line (a write a crash cut short, never acknowledged) cut off first. */
export function openForAppend(file: string): number {
  const fd = openSync(file, "r+");
  const size = fstatSync(fd).size;
  const tail = Buffer.alloc(Math.min(size, 64 * 1024));
  let end = size;
  for (let from = size; from > 0 && end === size; ) {
    const length = Math.min(from, tail.length);
    from -= length;
    readSync(fd, tail, 0, length, from);
    if (from + length === size && tail[length - 1] === 0x0a) break;
    const newline = tail.subarray(0, length).lastIndexOf(0x0a);
    if (newline !== -1) end = from + newline + 1;
    else if (from === 0) end = 0;
  }
  if (end !== size) ftruncateSync(fd, end);
  closeSync(fd);
  return openSync(file, "a");
}

/**
 * Takes `<file>.lock` for this process (its pid in it), so two processes never append to one
 * state file's log: their commits, numbered apart, would be applied to each other's snapshots.
 * A lock whose process is gone (killed) is taken over; one this process holds is its own (a
 * world replaced on the same file). Returns the release, which removes it.
 */
export function lockStateFile(file: string): () => void {
  const lock = `${file}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
    }
    const holder = Number.parseInt(readLock(lock), 10);
    if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))
      throw new Error(
        `[eval-simulate] the state file ${file} is being written by process ${holder}: give each serve its own state file (or remove ${lock} if that process is not serve)`,
      );
    rmSync(lock, { force: true });
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    // Only this process's own lock: one a later writer took over is left to it.
    if (readLock(lock).trim() === String(process.pid)) rmSync(lock, { force: true });
  };
}

function readLock(lock: string): string {
  try {
    return readFileSync(lock, { encoding: "utf8" }).slice(0, 32);
  } catch {
    return "";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
