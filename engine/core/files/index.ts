/**
 * engine/core/files/: reading a file a user names, safely. `readRegularFile` reads a file only when
 * it is a regular file under the size cap (64 MiB, `MAX_FILE_BYTES`): FIFOs, devices and
 * pseudo-files are refused before they are opened, and it is opened non-blocking, so one swapped
 * for a pipe cannot hang the read. Used by the manifest loader, typegen, the judge and the CLI's
 * code frames. Imports Node built-ins only.
 *
 * Other folders import this folder through this file only.
 */
export { MAX_FILE_BYTES, checkRegularFile, readRegularFile } from "./read-regular-file.js";
export type { FileRead } from "./read-regular-file.js";
