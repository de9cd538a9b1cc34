/**
 * engine/author/source/: where things are in the files a user writes. A YAML/JSON document with
 * positions (`source-document.ts`: any path, key or character inside a string to line:column),
 * where a JSON text stops being JSON (`json-error-offset.ts`), diagnostics (`diagnostic.ts`: code,
 * place, path, hint, the code list, "did you mean"; `report.ts`), a compiled thing's source
 * location (`source-location.ts`), ajv paths as manifest paths (`manifest-path.ts`), and loading a
 * user's TypeScript module (`load-module.ts`: native type stripping where Node has it, jiti
 * otherwise and where stripping refuses a module).
 *
 * Other folders import this folder through this file only.
 */
export { DIAGNOSTIC_CODES, ManifestError, didYouMean, suggestion } from "./diagnostic.js";
export type { Diagnostic, DiagnosticCode } from "./diagnostic.js";
export { jsonErrorOffset } from "./json-error-offset.js";
export { importUserModule } from "./load-module.js";
export { formatPath, pointerToPath } from "./manifest-path.js";
export { Report } from "./report.js";
export { positionKey, SourceDocument } from "./source-document.js";
export type { ParsedBefore, Position } from "./source-document.js";
export type { PathSegment } from "./source-document.js";
export type { SourceLocation } from "./source-location.js";
