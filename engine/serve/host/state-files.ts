import { appendFileSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Writes a JSON file atomically: to a temporary file beside it, then renamed over it, so a
 * reader (or a run killed mid-write) never sees a torn file.
 *
 * @example writeJsonAtomic("/run/state.json", services.states);
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, file);
}

/** Appends one JSON line; a line is written whole by one write call. */
export function appendJsonLine(file: string, value: unknown): void {
  appendFileSync(file, `${JSON.stringify(value)}\n`);
}

/** Makes sure a record file's folder exists before the first line. */
export function prepareRecordFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true });
}
