import { relative } from "node:path";
import type { Diagnostic } from "../engine/author/source/index.js";
import { readRegularFile } from "../engine/core/files/index.js";

/** The result of validating one manifest, as the CLI renders it. */
export interface ValidationOutcome {
  file: string;
  valid: boolean;
  diagnostics: Diagnostic[];
  /** What the manifest declares, for the success line. */
  summary?: { servers: number; tools: number; apis: number; scenarios: number };
  /** For an evals file: how many cases and selection fixtures it holds. */
  evals?: { cases: number; selection: number };
}

const shown = (file: string) => relative(process.cwd(), file) || file;

function frame(diagnostic: Diagnostic, cache: Map<string, string[]>): string {
  let lines = cache.get(diagnostic.file);
  if (!lines) {
    // The same rules as the loader's: a file swapped for a FIFO or a device since is not read.
    const read = readRegularFile(diagnostic.file);
    lines = read.ok ? read.text.split("\n") : [];
    cache.set(diagnostic.file, lines);
  }
  const line = lines[diagnostic.line - 1];
  if (line === undefined) return "";
  const { text, caret } = clipLine(line, diagnostic.column - 1);
  const gutter = String(diagnostic.line).length;
  return `  ${diagnostic.line} | ${text}\n  ${" ".repeat(gutter)} | ${" ".repeat(caret)}^\n`;
}

/** How much of the offending line a code frame shows around the column, at most. */
const FRAME_WIDTH = 100;

/**
 * The part of a line a code frame shows: the window around the column, control characters
 * made visible. A file with no line breaks (a binary, a minified JSON) is one line, and a frame
 * never echoes a whole file.
 */
export function clipLine(line: string, column: number): { text: string; caret: number } {
  const start = Math.max(0, Math.min(column - FRAME_WIDTH / 2, line.length - FRAME_WIDTH));
  const end = Math.min(line.length, start + FRAME_WIDTH);
  const visible = line.slice(start, end).replace(/[\u0000-\u0008\u000b-\u001f\u007f\r]/g, "·");
  const before = start > 0 ? "…" : "";
  const after = end < line.length ? "…" : "";
  return { text: `${before}${visible}${after}`, caret: before.length + Math.max(0, column - start) };
}

/** Human-readable: each problem with its place, a code frame and a hint, then a summary line. */
export function renderText(outcomes: ValidationOutcome[]): string {
  const cache = new Map<string, string[]>();
  let out = "";
  for (const outcome of outcomes) {
    for (const d of outcome.diagnostics) {
      out += `${shown(d.file)}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}\n`;
      out += `  at ${d.path}\n${frame(d, cache)}`;
      if (d.hint) out += `  hint: ${d.hint}\n`;
      out += "\n";
    }
    const errors = outcome.diagnostics.filter((d) => d.severity === "error").length;
    const warnings = outcome.diagnostics.length - errors;
    const warned = warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : "";
    if (outcome.valid && outcome.evals) {
      const e = outcome.evals;
      out += `✓ ${shown(outcome.file)} is valid: ${e.cases} case${e.cases === 1 ? "" : "s"}${e.selection ? `, ${e.selection} selection fixture${e.selection === 1 ? "" : "s"}` : ""}${warned}\n`;
    } else if (outcome.valid && outcome.summary) {
      const s = outcome.summary;
      out += `✓ ${shown(outcome.file)} is valid: ${s.servers} server${s.servers === 1 ? "" : "s"} (${s.tools} tools), ${s.apis} api${s.apis === 1 ? "" : "s"}, ${s.scenarios} scenario${s.scenarios === 1 ? "" : "s"}${warned}\n`;
    } else {
      out += `✗ ${shown(outcome.file)}: ${errors} error${errors === 1 ? "" : "s"}${warned}\n`;
    }
  }
  return out;
}

/** Machine-readable: every outcome with its diagnostics, file paths as given to the command. */
export function renderJson(outcomes: ValidationOutcome[]): string {
  return `${JSON.stringify({ valid: outcomes.every((o) => o.valid), files: outcomes }, null, 2)}\n`;
}

// GitHub's workflow commands escape these in messages, and also , and : in properties.
export const escapeData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
export const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** GitHub Actions annotations: `::error file=…,line=…,col=…,title=CODE::message`. */
export function renderGithub(outcomes: ValidationOutcome[]): string {
  let out = "";
  for (const outcome of outcomes) {
    for (const d of outcome.diagnostics) {
      const props = `file=${escapeProperty(shown(d.file))},line=${d.line},col=${d.column},title=${escapeProperty(d.code)}`;
      const message = `${d.message} (at ${d.path})${d.hint ? ` Hint: ${d.hint}` : ""}`;
      out += `::${d.severity === "error" ? "error" : "warning"} ${props}::${escapeData(message)}\n`;
    }
  }
  return out;
}
