/**
 * engine/core/files/: reading a file a user names, safely. `readRegularFile` reads a file only when
 * what it leads to (symlinks resolved) is a regular file under the size cap (64 MiB,
 * `MAX_FILE_BYTES`): FIFOs, devices and pseudo-files (by path and by file system) are refused
 * before they are opened, and it is opened non-blocking and checked again once open, so one
 * swapped for a pipe cannot hang the read (`read-regular-file.ts`). `readRegularLines` reads such
 * a file a line at a time under a cap per line and in all: record and results files
 * (`read-regular-lines.ts`). `isEvalsFile` tells an evals file from a manifest by its name or first
 * lines (`evals-file.ts`). Used by the manifest loader, typegen, the judge, the runner and the
 * CLI's code frames. Imports Node built-ins only.
 *
 * Other folders import this folder through this file only.
 */
export { MAX_FILE_BYTES, checkRegularFile, openRegularFile, readOpenedFile, readRegularFile, sizeText } from "./read-regular-file.js";
export type { FileRead, FileRefusal } from "./read-regular-file.js";
export { readRegularLines } from "./read-regular-lines.js";
export type { LineLimits, LinesRead } from "./read-regular-lines.js";
export { MAX_GLOB_ENTRIES, expandPaths } from "./glob-paths.js";
export { isEvalsFile } from "./evals-file.js";
