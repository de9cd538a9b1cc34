/**
 * Reading a file a manifest names, safely: a manifest comes from a pull request as often as from
 * its author, and `validate` runs in CI beside its secrets. A named pipe would hang the read, a
 * device (`/dev/zero`) would fill the memory, and a pseudo-file (`/proc/self/environ`) holds the
 * environment. Node built-ins only, so `verify` can use it too.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/** The largest file a manifest may name (and the largest manifest): 64 MiB. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file read, or why it was not. `reason` never quotes the file's content. */
export type FileRead = { ok: true; text: string } | { ok: false; reason: string; code: string };

/** Folders of the kernel's pseudo-files: what they hold is the system's, never a Recipe's. */
const PSEUDO = ["/proc/", "/sys/"];

function kind(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  if (stats.isDirectory()) return "a folder";
  return "not a regular file";
}

/**
 * Checks that `file` (an absolute path, symlinks already resolved) is a regular file no larger
 * than `maxBytes`, without opening it: a FIFO or a device is refused before anything can block.
 *
 * @example checkRegularFile("/recipe/mcp/crm/tools.json") // { ok: true, size: 5120 }
 */
export function checkRegularFile(file: string, maxBytes = MAX_FILE_BYTES): { ok: true; size: number } | { ok: false; reason: string; code: string } {
  if (PSEUDO.some((prefix) => file.startsWith(prefix))) return { ok: false, code: "EPSEUDO", reason: "is a system pseudo-file, not a Recipe's file" };
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "EIO";
    return { ok: false, code, reason: code === "ENOENT" ? "does not exist" : `cannot be read (${code})` };
  }
  const other = kind(stats);
  if (other) return { ok: false, code: "ENOTREG", reason: `is ${other}, not a regular file` };
  if (stats.size > maxBytes) return { ok: false, code: "EFBIG", reason: `is larger than ${maxBytes / 1024 / 1024} MiB` };
  return { ok: true, size: stats.size };
}

/**
 * Reads a regular file as UTF-8, refusing FIFOs, devices, sockets, folders and files past
 * `maxBytes`. Opened non-blocking so that a file swapped for a FIFO after the check cannot hang
 * the open, checked again on the open descriptor, and read no further than the cap whatever
 * the file system says its size is.
 *
 * @example const read = readRegularFile("/recipe/fakes.yaml"); if (read.ok) parse(read.text);
 */
export function readRegularFile(file: string, maxBytes = MAX_FILE_BYTES): FileRead {
  const checked = checkRegularFile(file, maxBytes);
  if (!checked.ok) return checked;
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "EIO";
    return { ok: false, code, reason: `cannot be read (${code})` };
  }
  try {
    const other = kind(fstatSync(fd));
    if (other) return { ok: false, code: "ENOTREG", reason: `is ${other}, not a regular file` };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return { ok: false, code: "EFBIG", reason: `is larger than ${maxBytes / 1024 / 1024} MiB` };
    }
    return { ok: true, text: Buffer.concat(chunks, total).toString("utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "EIO";
    return { ok: false, code, reason: `cannot be read (${code})` };
  } finally {
    closeSync(fd);
  }
}
