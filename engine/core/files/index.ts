/** The door of engine/core/files/: what other folders may import from it. */
export { MAX_FILE_BYTES, checkRegularFile, readRegularFile } from "./read-regular-file.js";
export type { FileRead } from "./read-regular-file.js";
export { MAX_GLOB_ENTRIES, expandPaths } from "./glob-paths.js";
