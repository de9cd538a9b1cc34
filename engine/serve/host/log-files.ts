/**
 * The file operations a state file's log needs: a line written whole to an append-mode file,
 * a file replaced atomically (fsynced before the rename, so a power loss never leaves it empty),
 * and a log opened to append to with the torn line a crash left at its end cut off.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, writeSync } from "node:fs";

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
