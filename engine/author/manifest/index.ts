/** The door of engine/author/manifest/: what other folders may import from it. */
export { documentOperations } from "./check-api.js";
export type { DocumentOperation } from "./check-api.js";
export { checkManifest, loadManifest } from "./load-manifest.js";
export type { LoadOptions, LoadResult } from "./load-manifest.js";
export { packageRoot } from "./package-root.js";
export { checkAgainstSchema } from "./schema-check.js";
