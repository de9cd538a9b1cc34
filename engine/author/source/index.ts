/** The door of engine/author/source/: what other folders may import from it. */
export { DIAGNOSTIC_CODES, ManifestError, didYouMean, suggestion } from "./diagnostic.js";
export type { Diagnostic, DiagnosticCode } from "./diagnostic.js";
export { jsonErrorOffset } from "./json-error-offset.js";
export { importUserModule } from "./load-module.js";
export { formatPath, pointerToPath } from "./manifest-path.js";
export { Report } from "./report.js";
export { SourceDocument } from "./source-document.js";
export type { PathSegment } from "./source-document.js";
export type { SourceLocation } from "./source-location.js";
