/**
 * Reading a file a manifest, an evals file or a run names, safely: such files come from a pull
 * request as often as from their author, and `validate` or `verify` runs in CI beside its
 * secrets. A named pipe would hang the read, a device (`/dev/zero`) would fill the memory, and a
 * pseudo-file (`/proc/self/environ`) holds the environment. Every check is made on the file a
 * path leads to (symlinks resolved), and again on the descriptor opened. Node built-ins only, so
 * `verify` can use it too.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats, statfsSync, statSync } from "node:fs";
import { resolve } from "node:path";

/** The largest file a manifest may name (and the largest manifest): 64 MiB. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file read, or why it was not. `reason` never quotes the file's content. */
export type FileRead = { ok: true; text: string } | { ok: false; reason: string; code: string };

/** A refusal: why a file is not read, and a code (`ENOENT`, `ENOTREG`, `EPSEUDO`, `EFBIG`, …). */
export type FileRefusal = { ok: false; reason: string; code: string };

/** Folders of the kernel's pseudo-files: what they hold is the system's, never a Recipe's. */
const PSEUDO = ["/proc/", "/sys/"];

/**
 * The file systems whose files are the kernel's, wherever they are mounted (statfs `f_type`):
 * proc, sysfs, debugfs, tracefs, securityfs, cgroup, cgroup2, bpf, nsfs, efivarfs, configfs.
 */
const PSEUDO_FILE_SYSTEMS = new Set([
  0x9fa0, 0x62656572, 0x64626720, 0x74726163, 0x73636673, 0x27e0eb, 0x63677270, 0xcafe4a11, 0x6e736673, 0xde5e81e4, 0x62656570,
]);

/** A byte count as messages say it: `1 MiB`, `512 KiB`, `100 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

const tooLarge = (maxBytes: number): FileRefusal => ({ ok: false, code: "EFBIG", reason: `is larger than ${sizeText(maxBytes)}` });
const failed = (error: unknown): FileRefusal => {
  const code = (error as NodeJS.ErrnoException).code ?? "EIO";
  return { ok: false, code, reason: code === "ENOENT" ? "does not exist" : `cannot be read (${code})` };
};

function kind(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  if (stats.isDirectory()) return "a folder";
  return "not a regular file";
}

function onPseudoFileSystem(real: string): boolean {
  if (PSEUDO.some((prefix) => real.startsWith(prefix))) return true;
  try {
    return PSEUDO_FILE_SYSTEMS.has(statfsSync(real).type);
  } catch {
    return false;
  }
}

/**
 * Checks that `file` leads (symlinks resolved) to a regular file no larger than `maxBytes`,
 * without opening it: a FIFO or a device is refused before anything can block, a link to a
 * pseudo-file is refused for what it leads to. `real` is the path the checks were made on.
 *
 * @example checkRegularFile("/recipe/mcp/crm/tools.json") // { ok: true, size: 5120, real: "/recipe/mcp/crm/tools.json" }
 */
export function checkRegularFile(file: string, maxBytes = MAX_FILE_BYTES): { ok: true; size: number; real: string; stats: Stats } | FileRefusal {
  let real: string;
  try {
    real = realpathSync(resolve(file));
  } catch (error) {
    return failed(error);
  }
  if (onPseudoFileSystem(real))
    return { ok: false, code: "EPSEUDO", reason: `is a system pseudo-file, not a Recipe's file${real === resolve(file) ? "" : ` (it leads to ${real})`}` };
  let stats: Stats;
  try {
    stats = statSync(real);
  } catch (error) {
    return failed(error);
  }
  const other = kind(stats);
  if (other) return { ok: false, code: "ENOTREG", reason: `is ${other}, not a regular file` };
  if (stats.size > maxBytes) return tooLarge(maxBytes);
  return { ok: true, size: stats.size, real, stats };
}

/**
 * Opens a file for reading once `checkRegularFile` accepts it: non-blocking (a file swapped for
 * a FIFO after the check cannot hang the open), never through a symlink swapped in since, and
 * only when the descriptor is the very file checked. The caller closes the descriptor.
 *
 * @example const opened = openRegularFile("run/record.jsonl"); if (opened.ok) try { … } finally { closeSync(opened.fd); }
 */
export function openRegularFile(file: string, maxBytes = MAX_FILE_BYTES): { ok: true; fd: number; size: number; real: string; uid: number } | FileRefusal {
  const checked = checkRegularFile(file, maxBytes);
  if (!checked.ok) return checked;
  let fd: number;
  try {
    fd = openSync(checked.real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    return failed(error);
  }
  try {
    const stats = fstatSync(fd);
    const other = kind(stats);
    const refusal: FileRefusal | undefined = other
      ? { ok: false, code: "ENOTREG", reason: `is ${other}, not a regular file` }
      : stats.dev !== checked.stats.dev || stats.ino !== checked.stats.ino
        ? { ok: false, code: "ECHANGED", reason: "was replaced while it was being opened" }
        : stats.size > maxBytes
          ? tooLarge(maxBytes)
          : undefined;
    if (refusal) {
      closeSync(fd);
      return refusal;
    }
    return { ok: true, fd, size: stats.size, real: checked.real, uid: stats.uid };
  } catch (error) {
    closeSync(fd);
    return failed(error);
  }
}

/**
 * Reads a regular file as UTF-8, refusing FIFOs, devices, sockets, folders, pseudo-files (a
 * symlink to one too) and files past `maxBytes`, and reading no further than the cap whatever
 * the file system says its size is.
 *
 * @example const read = readRegularFile("/recipe/fakes.yaml"); if (read.ok) parse(read.text);
 */
export function readRegularFile(file: string, maxBytes = MAX_FILE_BYTES): FileRead {
  const opened = openRegularFile(file, maxBytes);
  if (!opened.ok) return opened;
  return readOpenedFile(opened.fd, maxBytes);
}

/**
 * Reads a descriptor `openRegularFile` opened as UTF-8, no further than `maxBytes` whatever the
 * file system says its size is, and closes it.
 *
 * @example const opened = openRegularFile(file); if (opened.ok) { const owner = opened.uid; const read = readOpenedFile(opened.fd); }
 */
export function readOpenedFile(fd: number, maxBytes = MAX_FILE_BYTES): FileRead {
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return tooLarge(maxBytes);
    }
    return { ok: true, text: Buffer.concat(chunks, total).toString("utf8") };
  } catch (error) {
    return failed(error);
  } finally {
    closeSync(fd);
  }
}
