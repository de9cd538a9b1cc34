/**
 * engine/author/manifest/: Load. Reads `fakes.yaml` with positions, checks it against the published
 * schema (`schema-check.ts`: unknown keys, ids and unions, one clear diagnostic each), resolves the
 * files it names (`recipe-files.ts`: regular files in its folder and below, symlinks resolved,
 * `--allow-outside`, 64 MiB at most; `read-captured.ts`; `scenario-files.ts`: `{ $file }` JSON and
 * JSON Lines data), runs the semantic checks (`check-*.ts`: servers with their captures, answers,
 * entity maps and handlers; APIs; scenarios; stubs; static tools; worlds and invariants; served
 * resources against the capture, `E_UNKNOWN_RESOURCE`; `W_UNKNOWN_ARGUMENT` for `$args` reads the
 * input schema lacks; finite numbers, `E_NON_FINITE`) and gives a `Manifest` (`load-manifest.ts`:
 * `checkManifest` with every diagnostic, `loadManifest` or a `ManifestError`). `package-root.ts`
 * finds the package's own files; `published-validator.ts` gives the published schemas' validators,
 * precompiled at build time (scripts/build-validators.mjs) when they match the schema;
 * `manifest-cache.ts` keeps a valid manifest's parse, positions and schema compiles (and a valid
 * evals file's parse and positions) by its text's hash and the build's id (dist/build-id.txt), so
 * the next start skips them.
 *
 * Other folders import this folder through this file only.
 */
export { documentOperations } from "./check-api.js";
export type { DocumentOperation } from "./check-api.js";
export { checkManifest, loadManifest } from "./load-manifest.js";
export type { LoadOptions, LoadResult } from "./load-manifest.js";
export { packageRoot } from "./package-root.js";
export { compileAtRunTime, precompiled, publishedSchemaText, publishedValidator } from "./published-validator.js";
export type { PublishedSchemaName } from "./published-validator.js";
export { allowOutsideByDefault, RecipeFiles } from "./recipe-files.js";
export type { RecipeFilesOptions } from "./recipe-files.js";
export { checkAgainstSchema } from "./schema-check.js";
export { faithfulJson, manifestCacheSlot } from "./manifest-cache.js";
export type { CachedKind } from "./manifest-cache.js";
