import { type Diagnostic, type DiagnosticCode, DIAGNOSTIC_CODES } from "./diagnostic.js";
import { formatPath } from "./manifest-path.js";
import type { PathSegment, Position, SourceDocument } from "./source-document.js";
import type { SourceLocation } from "./source-location.js";

export interface ReportOptions {
  /** Point at the key rather than its value (unknown names, ids). */
  key?: boolean;
  hint?: string;
  /** An exact position, such as inside a JSONata expression. */
  position?: Position;
  /** A problem inside another file the manifest names (a capture, a document). */
  in?: { file: string; position: Position };
}

const MAX_LOCATED = 200_000;

/** A message quoting a file (a key, a token) says enough in this many characters. */
const MAX_MESSAGE = 1000;

/** Collects a manifest's diagnostics as the checks find them, each placed in its source. */
export class Report {
  readonly diagnostics: Diagnostic[] = [];
  /** The paths of the locations handed out (bounded), for the manifest cache to place them all. */
  private readonly located: (readonly PathSegment[])[] = [];

  constructor(readonly source: SourceDocument) {}

  error(code: DiagnosticCode, path: readonly PathSegment[], message: string, options: ReportOptions = {}): void {
    this.add("error", code, path, message, options);
  }

  warn(code: DiagnosticCode, path: readonly PathSegment[], message: string, options: ReportOptions = {}): void {
    this.add("warning", code, path, message, options);
  }

  /**
   * Where `path` is, for compiled things to remember. Found when first read: most locations
   * are never read, and finding one walks the document.
   */
  location(path: readonly PathSegment[]): SourceLocation {
    const source = this.source;
    if (this.located.length < MAX_LOCATED) this.located.push(path);
    let position: { line: number; column: number } | undefined;
    const find = () => (position ??= source.keyPositionOf(path));
    return {
      file: source.file,
      get line() {
        return find().line;
      },
      get column() {
        return find().column;
      },
      path: formatPath(path),
    };
  }

  /**
   * Finds the position of every location handed out, read or not: a manifest cache entry then
   * holds them all, for whoever reads them later (a hash of the manifest reads every one).
   */
  placeLocations(): void {
    for (const path of this.located) this.source.keyPositionOf(path);
  }

  get failed(): boolean {
    return this.diagnostics.some((d) => d.severity === "error");
  }

  /** True when an error was reported at `path` or below it. */
  hasErrorsUnder(path: readonly PathSegment[]): boolean {
    const prefix = formatPath(path);
    return this.diagnostics.some((d) => d.severity === "error" && (d.path === prefix || d.path.startsWith(`${prefix}.`) || d.path.startsWith(`${prefix}[`)));
  }

  private add(severity: Diagnostic["severity"], code: DiagnosticCode, path: readonly PathSegment[], message: string, options: ReportOptions): void {
    const position =
      options.in?.position ?? options.position ?? (options.key && path.length > 0 ? this.source.keyPositionOf(path) : this.source.positionOf(path));
    this.diagnostics.push({
      code,
      severity,
      message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message,
      hint: options.hint ?? DIAGNOSTIC_CODES[code],
      file: options.in?.file ?? this.source.file,
      line: position.line,
      column: position.column,
      path: formatPath(path),
    });
  }
}
